import type { ImageType } from '../storage/sniff.ts';

/** What a reservation (and the file uploaded through it) is for. */
export type UploadKind = 'cover' | 'import';

/** A one-upload permission behind an uploadUrl, bound to one bookmark (cover) or one import job. */
export interface Reservation {
  id: string;
  userId: string;
  kind: UploadKind;
  bookmarkId: string | null;
  jobId: string | null;
  maxBytes: number;
  createdAt: number;
  expiresAt: number;
  /** The file its one upload wrote (set as soon as that upload starts). */
  fileId: string | null;
  /** When a save-cover consumed it. */
  usedAt: number | null;
}

export interface NewReservation {
  tokenHash: string;
  userId: string;
  maxBytes: number;
  expiresAt: number;
}

export interface NewFile {
  id: string;
  size: number;
  /** The Content-Type the uploader declared, as declaredType() reads it. */
  declaredType: string | null;
  detectedType: ImageType | null;
  /** Past the reservation's limit: only this record exists, no bytes. */
  oversize: boolean;
}

export interface SaveCoverInput {
  userId: string;
  bookmarkId: string;
  reservationId: string;
  storageId: string;
  maxBytes: number;
  quotaBytes: number;
  /** The cover's public URL, stored as the bookmark's coverImage. */
  url: string;
}

/**
 * Upload reservations and the records of stored files (their bytes are the
 * storage service's business). Methods that free files answer the ids whose
 * bytes the caller must remove once the change is committed.
 */
export interface UploadsStore {
  /**
   * A cover reservation for an active bookmark of the user; null when there is no such
   * bookmark. TOO_MANY_PENDING_UPLOADS when maxPending cover reservations are outstanding.
   */
  reserveCover(input: NewReservation & { bookmarkId: string }, maxPending: number, now: number): Promise<Reservation | null>;
  /**
   * An import reservation. TOO_MANY_PENDING_UPLOADS when maxPending imports of the user are
   * pending: reserved and not started, with an upload URL still valid or a file uploaded.
   */
  reserveImport(input: NewReservation & { jobId: string }, maxPending: number, now: number): Promise<Reservation>;
  /** Takes the reservation's one upload for fileId; RESERVATION_INVALID when expired, used or unknown. */
  claimUpload(tokenHash: string, fileId: string, now: number): Promise<Reservation>;
  /** Gives a failed upload's claim back, so that the URL can be used again. */
  releaseUpload(reservationId: string, fileId: string): Promise<void>;
  /**
   * Records a claimed upload's file; false when its reservation was swept meanwhile.
   * STORAGE_LIMIT_REACHED when an import file would take the user's storage past quotaBytes.
   */
  recordFile(reservationId: string, userId: string, file: NewFile, quotaBytes: number, now: number): Promise<boolean>;

  /** Validates the reservation, file and quota, then makes the file the bookmark's cover. */
  saveCover(input: SaveCoverInput, now: number): Promise<{ freedFileId: string | null }>;
  /** Removes an active bookmark's cover (null: it had none); NOT_FOUND for no such bookmark. */
  deleteCover(userId: string, bookmarkId: string, now: number): Promise<{ freedFileId: string | null }>;
  /** A cover some bookmark shows, with what serving it needs. */
  servedCover(fileId: string): Promise<{ type: ImageType; size: number } | null>;
  /** Bytes of the covers the user's bookmarks (trashed ones included) hold. */
  coverBytes(userId: string): Promise<number>;

  /** The file uploaded for this import job of this user. */
  importFile(userId: string, jobId: string, fileId: string): Promise<{ size: number } | null>;
  /** Forgets a file (and the reservation it came through; a cover it was is cleared). */
  deleteFile(fileId: string): Promise<boolean>;
  /** Forgets every reservation and file of an import job. */
  deleteImportFilesOfJob(jobId: string): Promise<string[]>;

  /** Expired reservations: unused cover ones take their never-saved file along; import ones go when no file came. */
  sweepExpired(now: number): Promise<string[]>;
  /** Covers no bookmark refers to any more (the bookmark was deleted for good). */
  sweepOrphanCovers(): Promise<string[]>;
  /** Import files older than the cutoff that the jobs module did not delete. */
  sweepImportFiles(cutoff: number): Promise<string[]>;
  /** Which of these ids have a file record. */
  knownFiles(ids: string[]): Promise<Set<string>>;
}
