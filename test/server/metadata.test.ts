import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import {
  USER_AGENT,
  checkUrl,
  decodeBody,
  extractHtml,
  fetchPage,
  fetchPageMetadata,
  isPublicAddress,
  resolveHost,
  type FetchPageOptions,
  type GuardResult,
  type Resolver,
} from '../../server/metadata/index.ts';

// ---------------------------------------------------------------------------
// Local test servers

interface TestServer {
  origin: string;
  port: number;
  requests: { url: string; headers: http.IncomingHttpHeaders }[];
}

const servers: http.Server[] = [];

async function startServer(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<TestServer> {
  const requests: TestServer['requests'] = [];
  const server = http.createServer((req, res) => {
    requests.push({ url: req.url ?? '', headers: req.headers });
    handler(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, port, requests };
}

afterEach(async () => {
  const closing = servers.splice(0).map(
    (s) =>
      new Promise<void>((resolve) => {
        s.closeAllConnections();
        s.close(() => resolve());
      }),
  );
  await Promise.all(closing);
});

const html = (body: string, contentType = 'text/html; charset=utf-8') => (_req: http.IncomingMessage, res: http.ServerResponse) => {
  res.writeHead(200, { 'Content-Type': contentType });
  res.end(body);
};

const local = { allowPrivate: true } as const;

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await work;
  return { value, ms: performance.now() - start };
}

// ---------------------------------------------------------------------------

describe('isPublicAddress', () => {
  it.each([
    // IPv4 public
    ['8.8.8.8', true],
    ['1.1.1.1', true],
    ['93.184.216.34', true],
    ['172.15.255.255', true],
    ['172.32.0.0', true],
    ['100.63.255.255', true],
    ['100.128.0.0', true],
    ['169.253.255.255', true],
    ['192.169.0.1', true],
    ['223.255.255.255', true],
    // loopback
    ['127.0.0.1', false],
    ['127.255.255.254', false],
    // private
    ['10.0.0.1', false],
    ['10.255.255.255', false],
    ['172.16.0.1', false],
    ['172.31.255.255', false],
    ['192.168.1.1', false],
    // link-local / cloud metadata
    ['169.254.169.254', false],
    ['169.254.0.1', false],
    // CGNAT
    ['100.64.0.1', false],
    ['100.127.255.255', false],
    // unspecified / "this network"
    ['0.0.0.0', false],
    ['0.1.2.3', false],
    // multicast, reserved, broadcast
    ['224.0.0.1', false],
    ['239.255.255.255', false],
    ['240.0.0.1', false],
    ['255.255.255.255', false],
    // documentation / benchmarking / protocol assignments
    ['192.0.2.1', false],
    ['198.51.100.1', false],
    ['203.0.113.1', false],
    ['198.18.0.1', false],
    ['192.0.0.1', false],
    // IPv6 public
    ['2606:4700:4700::1111', true],
    ['2001:4860:4860::8888', true],
    ['2a00:1450:4001:82b::200e', true],
    ['[2606:4700:4700::1111]', true],
    // IPv6 loopback / unspecified
    ['::1', false],
    ['[::1]', false],
    ['0:0:0:0:0:0:0:1', false],
    ['::', false],
    // ULA, link-local, site-local, multicast
    ['fc00::1', false],
    ['fd12:3456:789a::1', false],
    ['fe80::1', false],
    ['fe80::1%eth0', false],
    ['febf::1', false],
    ['fec0::1', false],
    ['ff02::1', false],
    ['ff0e::1', false],
    // IPv4-mapped, hex and dotted forms
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['[::ffff:7f00:1]', false],
    ['::FFFF:10.0.0.1', false],
    ['::ffff:169.254.169.254', false],
    ['0:0:0:0:0:ffff:c0a8:0101', false],
    ['::ffff:8.8.8.8', true],
    ['::ffff:808:808', true],
    // deprecated IPv4-compatible
    ['::127.0.0.1', false],
    ['::8.8.8.8', false],
    // NAT64
    ['64:ff9b::127.0.0.1', false],
    ['64:ff9b::a00:1', false],
    ['64:ff9b::8.8.8.8', true],
    ['64:ff9b:1::8.8.8.8', false],
    // 6to4
    ['2002:7f00:1::', false],
    ['2002:c0a8:101::1', false],
    ['2002:808:808::1', true],
    // Teredo, documentation, ORCHID, discard
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', false],
    ['2001:db8::1', false],
    ['2001:10::1', false],
    ['2001:20::1', false],
    ['100::1', false],
    // not addresses at all: fail closed
    ['', false],
    ['localhost', false],
    ['example.com', false],
    ['127.1', false],
    ['0x7f.0.0.1', false],
    ['0177.0.0.1', false],
    ['01.2.3.4', false],
    ['256.1.1.1', false],
    ['1.2.3', false],
    ['1.2.3.4.5', false],
    ['2130706433', false],
    ['::1::', false],
    ['1:2:3:4:5:6:7:8:9', false],
    ['12345::1', false],
    ['g::1', false],
    [':1.2.3.4', false],
    ['1:2:3:4:5:6:7::8', false],
  ])('%s → %s', (ip, expected) => {
    expect(isPublicAddress(ip)).toBe(expected);
  });
});

describe('checkUrl', () => {
  const publicResolver: Resolver = async () => [{ address: '93.184.216.34', family: 4 }];
  const refused = (r: GuardResult) => (r.ok ? 'ok' : r.reason);

  it.each([
    'http://localhost/',
    'http://LOCALHOST:8080/',
    'http://localhost./',
    'http://localhost../',
    'http://app.localhost/',
    'http://127.0.0.1/',
    'http://127.1/', // URL canonicalises short and hex forms before we look
    'http://0x7f000001/',
    'http://2130706433/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::]/',
    'http://0.0.0.0/',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/',
    'http://[fd00::1]/',
    'ftp://example.com/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'not a url',
  ])('refuses %s without allowPrivate (and without asking DNS)', async (url) => {
    let asked = false;
    const resolver: Resolver = async () => {
      asked = true;
      return [{ address: '93.184.216.34', family: 4 }];
    };
    expect(refused(await checkUrl(url, false, resolver))).toBe('refused');
    expect(asked).toBe(false);
  });

  it('refuses a name that resolves to loopback', async () => {
    const resolver: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    expect(refused(await checkUrl('http://rebind.example/', false, resolver))).toBe('refused');
  });

  it('refuses when any one of several resolved addresses is private', async () => {
    const resolver: Resolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '2606:4700::1', family: 6 },
      { address: '::ffff:10.0.0.5', family: 6 },
    ];
    const result = await checkUrl('https://mixed.example/', false, resolver);
    expect(refused(result)).toBe('refused');
    expect(result.ok ? '' : result.detail).toContain('::ffff:10.0.0.5');
  });

  it('allows a name whose addresses are all public and returns them for pinning', async () => {
    const resolver: Resolver = async (host) => {
      expect(host).toBe('example.com');
      return [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:2800:220:1::1', family: 6 },
      ];
    };
    const result = await checkUrl('https://example.com/page', false, resolver);
    expect(result.ok && result.addresses.map((a) => a.address)).toEqual(['93.184.216.34', '2606:2800:220:1::1']);
  });

  it('allows a public IP literal without resolving it', async () => {
    const result = await checkUrl('http://8.8.8.8/', false, async () => {
      throw new Error('should not resolve');
    });
    expect(result.ok && result.addresses).toEqual([{ address: '8.8.8.8', family: 4 }]);
  });

  it('reports DNS failure and empty answers as unresolvable, not refused', async () => {
    const failing: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nope.invalid'), { code: 'ENOTFOUND' });
    };
    expect(refused(await checkUrl('http://nope.invalid/', false, failing))).toBe('unresolvable');
    expect(refused(await checkUrl('http://empty.example/', false, async () => []))).toBe('unresolvable');
  });

  it('lets private targets through with allowPrivate, but never other schemes', async () => {
    expect(refused(await checkUrl('http://127.0.0.1:9/', true, publicResolver))).toBe('ok');
    expect(refused(await checkUrl('http://[::1]/', true, publicResolver))).toBe('ok');
    expect(refused(await checkUrl('http://localhost/', true))).toBe('ok');
    expect(refused(await checkUrl('file:///etc/passwd', true))).toBe('refused');
  });

  it('real DNS: localhost resolves only to non-public addresses, so it is refused even without the name rule', async () => {
    const addresses = await resolveHost('localhost');
    expect(addresses.length).toBeGreaterThan(0);
    for (const a of addresses) expect(isPublicAddress(a.address)).toBe(false);
    expect(refused(await checkUrl('http://localhost/', false))).toBe('refused');
  });
});

describe('extractHtml', () => {
  const url = 'https://example.com/blog/post';

  it('prefers og:title, then <title>, then twitter:title; same chain for descriptions', () => {
    const og = extractHtml(
      `<title>T</title><meta name="twitter:title" content="TW"><meta property="og:title" content="OG">
       <meta name="description" content="D"><meta property="og:description" content="OGD">`,
      url,
    );
    expect([og.title, og.description]).toEqual(['OG', 'OGD']);

    const plain = extractHtml(
      `<meta property="og:title" content="  "><title>T</title><meta name="twitter:title" content="TW"><meta name="description" content="D"><meta name="twitter:description" content="TWD">`,
      url,
    );
    expect([plain.title, plain.description]).toEqual(['T', 'D']);

    const twitter = extractHtml(`<meta name="twitter:title" content="TW"><meta name="twitter:description" content="TWD">`, url);
    expect([twitter.title, twitter.description]).toEqual(['TW', 'TWD']);
  });

  it('decodes entities and collapses whitespace', () => {
    const r = extractHtml(
      `<title>
        Tom &amp; Jerry&#39;s
        &lt;Caf&eacute;&gt; &#x1F600;</title><meta name="description" content="a&nbsp;&amp;&#10;  b">`,
      url,
    );
    expect(r.title).toBe("Tom & Jerry's <Café> 😀");
    expect(r.description).toBe('a & b');
  });

  it('caps title at 500 and description at 2000 characters', () => {
    const r = extractHtml(`<title>${'t'.repeat(900)}</title><meta name="description" content="${'d'.repeat(5000)}">`, url);
    expect(r.title).toHaveLength(500);
    expect(r.description).toHaveLength(2000);
  });

  it('does not split a surrogate pair when capping', () => {
    const r = extractHtml(`<title>${'t'.repeat(499)}😀😀</title>`, url);
    expect(r.title).toBe('t'.repeat(499));
  });

  it('ignores an inline SVG <title>', () => {
    expect(extractHtml(`<body><svg><title>icon</title></svg><h1>x</h1></body>`, url).title).toBe('');
    expect(extractHtml(`<svg><title>icon</title></svg><title>Real</title>`, url).title).toBe('Real');
  });

  it('takes the excerpt from article, then main, then body, skipping furniture and short lines', () => {
    const long = (w: string) => `${w} `.repeat(12).trim();
    const doc = `<body><nav><p>${long('nav')}</p></nav><p>Skip to content</p><p>${long('body')}</p>
      <main><p>${long('main')}</p><article><header><p>${long('header')}</p></header><p>By me</p>
      <p>${long('article')}</p></article></main></body>`;
    expect(extractHtml(doc, url).excerpt).toBe(long('article'));
    expect(extractHtml(doc.replace(/<article>[\s\S]*<\/article>/, ''), url).excerpt).toBe(long('main'));
    expect(extractHtml(`<p>${long('body')}</p><footer><p>${long('foot')}</p></footer>`, url).excerpt).toBe(long('body'));
    expect(extractHtml(`<p>  </p><p>Tiny.</p>`, url).excerpt).toBe('Tiny.');
    expect(extractHtml(`<p><script>var x = "${long('js')}";</script>${long('text')}</p>`, url).excerpt).toBe(long('text'));
    expect(extractHtml(`<div>no paragraphs</div>`, url).excerpt).toBe('');
  });

  it('cuts a long excerpt to about 300 characters at a word boundary', () => {
    const text = 'lorem ipsum dolor sit amet '.repeat(40);
    const excerpt = extractHtml(`<p>${text}</p>`, url).excerpt;
    expect(excerpt.length).toBeLessThanOrEqual(301);
    expect(excerpt.length).toBeGreaterThan(250);
    expect(excerpt.endsWith('…')).toBe(true);
    expect(text.startsWith(excerpt.slice(0, -1))).toBe(true);
    expect(excerpt.at(-2)).not.toBe(' ');
  });

  it('resolves the favicon against the page URL (or <base>) and prefers rel=icon', () => {
    expect(extractHtml(`<link rel="apple-touch-icon" href="/apple.png"><link rel="icon" href="fav.png">`, url).favicon).toBe(
      'https://example.com/blog/fav.png',
    );
    expect(extractHtml(`<link rel="Shortcut Icon" href="//cdn.example.net/f.ico">`, url).favicon).toBe(
      'https://cdn.example.net/f.ico',
    );
    expect(extractHtml(`<link rel="apple-touch-icon" href="/apple.png">`, url).favicon).toBe('https://example.com/apple.png');
    expect(extractHtml(`<base href="https://static.example.com/x/"><link rel="icon" href="i.png">`, url).favicon).toBe(
      'https://static.example.com/x/i.png',
    );
    expect(extractHtml(`<link rel="mask-icon" href="/mask.svg">`, url).favicon).toBe('https://example.com/favicon.ico');
    expect(extractHtml(`<link rel="icon" href="data:image/png;base64,AAAA">`, url).favicon).toBe(
      'https://example.com/favicon.ico',
    );
    expect(extractHtml(``, 'http://example.com:8080/a').favicon).toBe('http://example.com:8080/favicon.ico');
  });
});

describe('decodeBody', () => {
  const latin1 = (s: string) => Buffer.from(s, 'latin1');

  it('uses the Content-Type charset', () => {
    expect(decodeBody(latin1('<title>Café</title>'), 'text/html; charset=ISO-8859-1')).toBe('<title>Café</title>');
    expect(decodeBody(latin1('<title>Café</title>'), 'text/html; charset="latin1"')).toBe('<title>Café</title>');
  });

  it('falls back to <meta charset> and http-equiv, treating latin1 as windows-1252', () => {
    const body = Buffer.concat([latin1('<meta charset="windows-1252"><title>'), Buffer.from([0x80, 0xe9]), latin1('</title>')]);
    expect(decodeBody(body, 'text/html')).toContain('€é');
    const equiv = Buffer.concat([
      latin1('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"><p>'),
      Buffer.from([0xe9]),
    ]);
    expect(decodeBody(equiv, 'text/html')).toContain('<p>é');
  });

  it('maps 0x80–0x9F as browsers do for windows-1252 and its latin1/ascii aliases', () => {
    // Guards against Node's TextDecoder treating windows-1252 as ISO-8859-1 (nodejs/node#60888).
    const bytes = Buffer.from([0x80, 0x82, 0x85, 0x91, 0x92, 0x93, 0x94, 0x96, 0x97, 0x99, 0x9f, 0x81, 0xe9]);
    const expected = '€‚…‘’“”–—™Ÿ\u0081é';
    for (const label of ['windows-1252', 'iso-8859-1', 'latin1', 'us-ascii']) {
      expect(decodeBody(bytes, `text/html; charset=${label}`)).toBe(expected);
    }
  });

  it('lets the header win over meta, and a BOM win over both', () => {
    const utf8 = Buffer.from('<meta charset="iso-8859-1"><p>é</p>', 'utf8');
    expect(decodeBody(utf8, 'text/html; charset=utf-8')).toContain('<p>é</p>');
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8]);
    expect(decodeBody(bom, 'text/html; charset=iso-8859-1')).toContain('<p>é</p>');
  });

  it('defaults to UTF-8 and ignores unknown labels', () => {
    const utf8 = Buffer.from('<p>é</p>', 'utf8');
    expect(decodeBody(utf8, 'text/html')).toBe('<p>é</p>');
    expect(decodeBody(utf8, 'text/html; charset=x-made-up')).toBe('<p>é</p>');
  });
});

describe('fetchPageMetadata against local servers', () => {
  it('reads og tags, decodes entities, resolves the favicon and sends our headers', async () => {
    const server = await startServer(
      html(`<!doctype html><html><head>
        <title>Fallback title</title>
        <meta property="og:title" content="Caf&eacute; &amp; Bar &mdash; Menu">
        <meta property="og:description" content="Fresh &quot;coffee&quot;&nbsp;daily">
        <meta property="og:type" content="article">
        <link rel="shortcut icon" href="/static/fav.ico">
      </head><body><article><p>Our caf&eacute; serves coffee roasted in-house every single morning.</p></article></body></html>`),
    );
    const meta = await fetchPageMetadata(`${server.origin}/menu`, local);
    expect(meta).toEqual({
      title: 'Café & Bar — Menu',
      description: 'Fresh "coffee" daily',
      excerpt: 'Our café serves coffee roasted in-house every single morning.',
      favicon: `${server.origin}/static/fav.ico`,
      type: 'article',
      httpStatus: 200,
      linkStatus: 'ok',
      fetched: true,
    });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers['user-agent']).toBe(USER_AGENT);
    expect(server.requests[0]?.headers.accept).toBe('text/html,*/*;q=0.8');
  });

  it('falls back to <title> and the default favicon', async () => {
    const server = await startServer(html(`<html><head><title>  Just a   title </title></head><body></body></html>`));
    const meta = await fetchPageMetadata(`${server.origin}/`, local);
    expect(meta).toMatchObject({
      title: 'Just a title',
      description: '',
      excerpt: '',
      favicon: `${server.origin}/favicon.ico`,
      type: 'link',
      linkStatus: 'ok',
    });
  });

  it('decodes a latin1 page declared in the header', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=iso-8859-1' });
      res.end(Buffer.from('<title>Crème brûlée à la française</title>', 'latin1'));
    });
    expect((await fetchPageMetadata(server.origin, local)).title).toBe('Crème brûlée à la française');
  });

  it('decodes a windows-1252 page declared only in <meta charset>', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(Buffer.concat([Buffer.from('<meta charset="windows-1252"><title>Price: '), Buffer.from([0x80]), Buffer.from('5</title>')]));
    });
    expect((await fetchPageMetadata(server.origin, local)).title).toBe('Price: €5');
  });

  it('follows a redirect chain and resolves relative URLs against the final page', async () => {
    const target = await startServer(
      html(`<title>Arrived</title><link rel="icon" href="icon.png">`),
    );
    const first = await startServer((req, res) => {
      if (req.url === '/start') res.writeHead(301, { Location: '/hop' }).end();
      else if (req.url === '/hop') res.writeHead(307, { Location: `${target.origin}/deep/page` }).end();
      else res.writeHead(500).end();
    });
    const meta = await fetchPageMetadata(`${first.origin}/start`, local);
    expect(meta).toMatchObject({ title: 'Arrived', httpStatus: 200, linkStatus: 'ok', favicon: `${target.origin}/deep/icon.png` });
    expect(first.requests.map((r) => r.url)).toEqual(['/start', '/hop']);
    expect(target.requests.map((r) => r.url)).toEqual(['/deep/page']);
  });

  it('stops after maxRedirects and reports the redirect loop as broken', async () => {
    const server = await startServer((_req, res) => res.writeHead(302, { Location: '/again' }).end());
    const meta = await fetchPageMetadata(`${server.origin}/`, { ...local, maxRedirects: 3 });
    expect(meta).toMatchObject({ httpStatus: 302, linkStatus: 'broken', fetched: true, title: '' });
    expect(server.requests).toHaveLength(4);
  });

  it('refuses a redirect to a non-http scheme', async () => {
    const server = await startServer((_req, res) => res.writeHead(302, { Location: 'file:///etc/passwd' }).end());
    const meta = await fetchPageMetadata(server.origin, local);
    expect(meta).toMatchObject({ linkStatus: 'unchecked', fetched: false, httpStatus: 0 });
  });

  it('reports 404 as broken without taking the error page title', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(404, { 'Content-Type': 'text/html' });
      res.end('<title>Page not found</title>');
    });
    const meta = await fetchPageMetadata(`${server.origin}/missing`, local);
    expect(meta).toMatchObject({ httpStatus: 404, linkStatus: 'broken', fetched: true, title: '' });
  });

  it('reports 500 as broken', async () => {
    const server = await startServer((_req, res) => res.writeHead(503).end());
    expect(await fetchPageMetadata(server.origin, local)).toMatchObject({ httpStatus: 503, linkStatus: 'broken' });
  });

  it.each([
    ['image/png', 'image'],
    ['image/svg+xml', 'image'],
    ['video/mp4', 'video'],
    ['application/pdf', 'document'],
    ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'document'],
    ['text/plain', 'link'],
    ['application/json', 'link'],
  ])('classifies %s as %s without parsing the body', async (contentType, type) => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': contentType });
      res.end('<title>not html</title>');
    });
    expect(await fetchPageMetadata(`${server.origin}/file`, local)).toEqual({
      title: '',
      description: '',
      excerpt: '',
      favicon: `${server.origin}/favicon.ico`,
      type,
      httpStatus: 200,
      linkStatus: 'ok',
      fetched: true,
    });
  });

  it('uses og:type video for HTML pages', async () => {
    const server = await startServer(html(`<meta property="og:type" content="video.episode"><title>Ep 1</title>`));
    expect(await fetchPageMetadata(server.origin, local)).toMatchObject({ type: 'video', title: 'Ep 1' });
  });

  it('parses application/xhtml+xml', async () => {
    const server = await startServer(html(`<html><head><title>X</title></head></html>`, 'application/xhtml+xml'));
    expect((await fetchPageMetadata(server.origin, local)).title).toBe('X');
  });

  it('decompresses a gzip body sent despite Accept-Encoding: identity', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip' });
      res.end(gzipSync('<title>Zipped</title>'));
    });
    expect((await fetchPageMetadata(server.origin, local)).title).toBe('Zipped');
  });

  it('gives up on a server that never answers within timeoutMs', async () => {
    const server = await startServer(() => {
      /* never responds */
    });
    const { value, ms } = await timed(fetchPageMetadata(server.origin, { ...local, timeoutMs: 300 }));
    expect(value).toMatchObject({ linkStatus: 'unreachable', httpStatus: 0, fetched: false, title: '' });
    expect(ms).toBeGreaterThanOrEqual(250);
    expect(ms).toBeLessThan(1300);
    expect(server.requests).toHaveLength(1);
  });

  it('counts a hung redirect hop against the same deadline', async () => {
    const hang = await startServer(() => {});
    const first = await startServer((_req, res) => {
      setTimeout(() => res.writeHead(302, { Location: hang.origin }).end(), 150);
    });
    const { value, ms } = await timed(fetchPageMetadata(first.origin, { ...local, timeoutMs: 400 }));
    expect(value.linkStatus).toBe('unreachable');
    expect(ms).toBeLessThan(1300);
    expect(hang.requests).toHaveLength(1);
  });

  it('returns what arrived when a body trickles past the deadline', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.write('<html><head><title>Slow but alive</title></head><body>');
      const tick = setInterval(() => res.write('.'), 20);
      res.on('close', () => clearInterval(tick));
    });
    const { value, ms } = await timed(fetchPageMetadata(server.origin, { ...local, timeoutMs: 300 }));
    expect(value).toMatchObject({ title: 'Slow but alive', linkStatus: 'ok', httpStatus: 200, fetched: true });
    expect(ms).toBeLessThan(1300);
  });

  it('stops reading a huge body at maxBytes', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const offered = 64 * 1024 * 1024;
    let written = 0;
    let closed!: () => void;
    const socketClosed = new Promise<void>((resolve) => (closed = resolve));
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.write('<html><head><title>Big</title></head><body><p>');
      const pump = (): void => {
        while (written < offered && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', closed);
      pump();
    });
    const { value, ms } = await timed(fetchPageMetadata(server.origin, { ...local, maxBytes: 128 * 1024, timeoutMs: 10_000 }));
    await socketClosed;
    expect(value).toMatchObject({ title: 'Big', linkStatus: 'ok' });
    expect(ms).toBeLessThan(3000);
    // Kernel socket buffers absorb some megabytes; the point is we hung up long before 64 MiB.
    expect(written).toBeLessThan(offered / 4);
  });

  it('reports a closed port as unreachable', async () => {
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    expect(await fetchPageMetadata(`http://127.0.0.1:${port}/`, local)).toMatchObject({
      linkStatus: 'unreachable',
      httpStatus: 0,
      fetched: false,
    });
  });

  it('reports a DNS failure as unreachable', async () => {
    const { value, ms } = await timed(fetchPageMetadata('http://shelf-test-no-such-host.invalid/', { allowPrivate: false, timeoutMs: 1500 }));
    expect(value).toMatchObject({ linkStatus: 'unreachable', httpStatus: 0, fetched: false });
    expect(ms).toBeLessThan(2500);
  });

  it('never throws on garbage input', async () => {
    expect(await fetchPageMetadata('not a url', local)).toMatchObject({ linkStatus: 'unchecked', favicon: '' });
    expect(await fetchPageMetadata('', { allowPrivate: false })).toMatchObject({ linkStatus: 'unchecked' });
  });
});

describe('fetchPageMetadata SSRF refusals', () => {
  it.each([
    (o: TestServer) => `${o.origin}/`,
    (o: TestServer) => `http://localhost:${o.port}/`,
    (o: TestServer) => `http://localhost.:${o.port}/`,
    (o: TestServer) => `http://[::1]:${o.port}/`,
    (o: TestServer) => `http://[::ffff:127.0.0.1]:${o.port}/`,
    (o: TestServer) => `http://0x7f.0.0.1:${o.port}/`,
  ])('refuses loopback target #%# and the server sees no request', async (toUrl) => {
    const server = await startServer(html('<title>secret</title>'));
    const meta = await fetchPageMetadata(toUrl(server), { allowPrivate: false });
    expect(meta).toEqual({
      title: '',
      description: '',
      excerpt: '',
      favicon: '',
      type: 'link',
      httpStatus: 0,
      linkStatus: 'unchecked',
      fetched: false,
    });
    expect(server.requests).toHaveLength(0);
  });

  it('the same server is reachable with allowPrivate (so the refusals above are the guard, not the network)', async () => {
    const server = await startServer(html('<title>secret</title>'));
    expect((await fetchPageMetadata(`http://localhost:${server.port}/`, local)).title).toBe('secret');
  });
});

describe('fetchPage', () => {
  const base: Omit<FetchPageOptions, 'guard'> = {
    allowPrivate: false,
    timeoutMs: 2000,
    maxBytes: 64 * 1024,
    maxRedirects: 5,
    wantBody: () => true,
  };

  it('re-validates every redirect hop: an allowed server cannot bounce us to loopback', async () => {
    const internal = await startServer(html('<title>internal</title>'));
    const external = await startServer((_req, res) => res.writeHead(302, { Location: `${internal.origin}/admin` }).end());
    const checked: string[] = [];
    // Stand-in for "external is a public host": only its exact origin skips the
    // check; everything else gets the real guard with allowPrivate false.
    const guard = async (url: URL, allowPrivate: boolean): Promise<GuardResult> => {
      checked.push(url.href);
      if (url.origin === external.origin) {
        return { ok: true, url, addresses: [{ address: '127.0.0.1', family: 4 }] };
      }
      return checkUrl(url, allowPrivate);
    };
    const outcome = await fetchPage(`${external.origin}/go`, { ...base, guard });
    expect(outcome.kind).toBe('refused');
    expect(checked).toEqual([`${external.origin}/go`, `${internal.origin}/admin`]);
    expect(external.requests).toHaveLength(1);
    expect(internal.requests).toHaveLength(0);
  });

  it('connects to the address the guard validated instead of resolving the name again', async () => {
    const server = await startServer(html('<title>pinned</title>'));
    // `.invalid` can never resolve, so reaching the server proves the pinned lookup was used.
    const url = `http://pinned.invalid:${server.port}/p`;
    const guard = async (u: URL): Promise<GuardResult> => ({ ok: true, url: u, addresses: [{ address: '127.0.0.1', family: 4 }] });
    const outcome = await fetchPage(url, { ...base, guard });
    expect(outcome.kind).toBe('response');
    expect(outcome.kind === 'response' && outcome.body.toString()).toContain('pinned');
    expect(server.requests[0]?.headers.host).toBe(`pinned.invalid:${server.port}`);
  });

  it('times out a guard whose DNS lookup hangs', async () => {
    const guard = (): Promise<GuardResult> => new Promise(() => {});
    const { value, ms } = await timed(fetchPage('http://hang.example/', { ...base, timeoutMs: 200, guard }));
    expect(value.kind).toBe('unreachable');
    expect(ms).toBeLessThan(1000);
  });

  it('truncates the body to exactly maxBytes', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(Buffer.alloc(300_000, 'x'));
    });
    const outcome = await fetchPage(server.origin, { ...base, allowPrivate: true, maxBytes: 100_000 });
    expect(outcome.kind === 'response' && outcome.body.length).toBe(100_000);
  });
});
