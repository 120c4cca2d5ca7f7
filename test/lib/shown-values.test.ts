import { describe, expect, it } from 'vitest';
import { colorDot, shownImage } from '../../lib/dom/shown-values.ts';

describe('values from the API checked where they are drawn', () => {
  it('draws images from http(s) only', () => {
    expect(shownImage('https://a.example/f.ico')).toBe('https://a.example/f.ico');
    expect(shownImage('http://127.0.0.1:8787/storage/files/abc')).toBe('http://127.0.0.1:8787/storage/files/abc');
    for (const url of ['javascript:alert(1)', 'data:image/gif;base64,R0lGODlhAQABAAAAACw=', '//beacon.example/f.gif', 'file:///etc/passwd', 'f.ico', '', null, undefined]) {
      expect(shownImage(url), String(url)).toBeNull();
    }
  });

  it('paints a colour as a background colour only, and nothing that is not a colour', () => {
    expect(colorDot('#abc')).toEqual({ backgroundColor: '#abc' });
    expect(colorDot('Teal')).toEqual({ backgroundColor: 'Teal' });
    for (const color of ['url(//beacon.example/c.gif)', 'red;background:url(x)', 'var(--x)', '#12345', '', null, undefined]) {
      expect(colorDot(color), String(color)).toBeNull();
    }
  });
});
