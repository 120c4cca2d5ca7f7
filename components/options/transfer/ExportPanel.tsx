import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { ExportFormat } from '../../../lib/api/jobs.ts';
import type { ExportFile } from '../../../lib/messaging/library-replies.ts';
import { labelClass, primaryButtonClass } from '../../field-styles.ts';
import { sendLibrary } from '../../library/send.ts';
import { SectionError, failureOf } from '../SectionError.tsx';
import { JobProgress } from './JobProgress.tsx';
import { useJob } from './use-job.ts';

const FORMAT_LABELS: Record<ExportFormat, string> = { json: 'JSON (everything, for Shelf)', csv: 'CSV (a spreadsheet)', html: 'HTML (any browser can import it)' };

/** Saves the file as a download from this page: a blob URL, no downloads permission. */
function saveFile(file: ExportFile): string {
  const url = URL.createObjectURL(new Blob([file.text], { type: file.type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.fileName;
  link.click();
  return url;
}

/** Export: the whole library as JSON, CSV or HTML, a progress bar while the server writes it, and the file downloaded when done. */
export function ExportPanel() {
  const id = useId();
  const [format, setFormat] = useState<ExportFormat>('json');
  const [jobId, setJobId] = useState<string | null>(null);
  const [saved, setSaved] = useState<{ name: string; url: string } | null>(null);
  const start = useMutation({ mutationFn: () => sendLibrary('startExport', { format }), onSuccess: ({ jobId }) => setJobId(jobId) });
  const job = useJob(jobId);
  const download = useMutation({
    mutationFn: (id: string) => sendLibrary('downloadExport', { id }),
    onSuccess: (file) => setSaved({ name: file.fileName, url: saveFile(file) }),
  });
  const fetched = useRef<string | null>(null);

  const completed = job.data?.status === 'completed' ? job.data.id : null;
  const { mutate: fetchFile } = download;
  useEffect(() => {
    if (completed === null || fetched.current === completed) return;
    fetched.current = completed;
    fetchFile(completed);
  }, [completed, fetchFile]);

  // The blob lives as long as its link is shown.
  useEffect(() => () => void (saved && URL.revokeObjectURL(saved.url)), [saved]);

  const running = jobId !== null && job.data?.status !== 'failed' && saved === null && !download.isError;
  const failure = failureOf(start.error ?? job.error ?? download.error);
  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-3">
      <h3 id={`${id}-heading`} className="text-base font-semibold">
        Export
      </h3>
      <fieldset className="space-y-1">
        <legend className={labelClass}>Format</legend>
        {ExportFormat.options.map((f) => (
          <label key={f} className="flex items-center gap-2 text-sm">
            <input type="radio" name={`${id}-format`} value={f} checked={format === f} onChange={() => setFormat(f)} />
            {FORMAT_LABELS[f]}
          </label>
        ))}
      </fieldset>
      <button
        type="button"
        className={primaryButtonClass}
        disabled={start.isPending || running}
        onClick={() => {
          setJobId(null);
          setSaved(null);
          start.mutate();
        }}
      >
        Export library
      </button>
      {job.data && <JobProgress job={job.data} label="Export progress" />}
      <div role="status" className="text-sm">
        {job.data?.status === 'failed' && <p>The export failed: {job.data.errorMessage ?? 'the server did not say why'}. Start it again.</p>}
        {saved && (
          <p>
            Downloaded{' '}
            <a href={saved.url} download={saved.name} className="underline">
              {saved.name}
            </a>
            .
          </p>
        )}
      </div>
      {failure && <SectionError error={failure} />}
    </section>
  );
}
