import { type ExportFormat, type Job, MAX_IMPORT_BYTES } from '../../lib/api/jobs.ts';
import { ClientError } from '../../lib/client/errors.ts';
import type { ExportFile } from '../../lib/messaging/library-replies.ts';
import type { Account } from './account.ts';

const FILE_NAME = /filename="([^"]+)"/;

/** Import and export jobs: the page starts one, follows its progress, and takes the export's file when done. */
export class Transfer {
  constructor(
    private account: Account,
    /** An import finished: the saved-page index catches up (its bookmarks keep their file's dates, beyond a newest-first sync). */
    private onImported: (job: Job) => void,
  ) {}

  /** Imports whose end was told, so that a page following one tells it once. */
  private told = new Set<string>();

  async startExport(format: ExportFormat): Promise<{ jobId: string }> {
    return (await this.account.client()).call('startExport', { params: { format } });
  }

  async job(id: string): Promise<Job> {
    const job = await (await this.account.client()).call('getJob', { params: { id } });
    if (job.type === 'import' && job.status === 'completed' && !this.told.has(id)) {
      this.told.add(id);
      this.onImported(job);
    }
    return job;
  }

  async download(id: string): Promise<ExportFile> {
    const response = await (await this.account.client()).call('downloadExport', { params: { id } });
    const fileName = FILE_NAME.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? 'shelf-export';
    return { fileName, type: response.headers.get('Content-Type') ?? 'application/octet-stream', text: await response.text() };
  }

  /** The spec's three steps in one: reserve a job, upload the file to its URL, start it. */
  async startImport(text: string): Promise<Job> {
    const client = await this.account.client();
    // The server counts bytes; the message carried characters.
    if (new TextEncoder().encode(text).byteLength > MAX_IMPORT_BYTES) throw new ClientError('PAYLOAD_TOO_LARGE', 'The file is larger than 5 MB');
    const { jobId, uploadUrl } = await client.call('reserveImport');
    const { storageId } = await client.upload(uploadUrl, new TextEncoder().encode(text), 'application/octet-stream');
    return client.call('startImport', { body: { jobId, storageId } });
  }
}
