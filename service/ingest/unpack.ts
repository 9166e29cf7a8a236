import { gunzipSync } from 'node:zlib';
import { unzipSync, type UnzipFileInfo } from 'fflate';
import { ReportParseError, asReportParseError } from './reportParseError.ts';

/** How the report bytes were wrapped when they arrived. */
export type ReportContainer = 'plain' | 'gzip' | 'zip';

/** The report document taken out of its container. */
export interface UnpackedReport {
  container: ReportContainer;
  bytes: Uint8Array;
  /** Name of the zip entry that was used (zip only). */
  entry_name?: string;
}

export interface UnpackOptions {
  /** Zip entries are matched on this ending, case-insensitively (".xml" for DMARC, ".json" for TLS-RPT). */
  entryExtension?: string;
  /** Upper bound for the unpacked document, so a decompression bomb is refused instead of filling memory. */
  maxUnpackedBytes?: number;
}

/** 64 MiB: the largest daily aggregate reports from big receivers are a few MB unpacked. */
export const DEFAULT_MAX_UNPACKED_BYTES = 64 * 1024 * 1024;

const GZIP_MAGIC = [0x1f, 0x8b];
const ZIP_LOCAL_FILE_MAGIC = [0x50, 0x4b, 0x03, 0x04];
// An archive with no entries starts directly with its end-of-central-directory record.
const ZIP_EMPTY_ARCHIVE_MAGIC = [0x50, 0x4b, 0x05, 0x06];

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return bytes.length >= magic.length && magic.every((byte, i) => bytes[i] === byte);
}

/** Detects the container from the leading bytes (never the file name) and returns the document inside it. */
export function unpackReport(bytes: Uint8Array, options: UnpackOptions = {}): UnpackedReport {
  const maxBytes = options.maxUnpackedBytes ?? DEFAULT_MAX_UNPACKED_BYTES;
  if (startsWith(bytes, GZIP_MAGIC)) return { container: 'gzip', bytes: gunzip(bytes, maxBytes) };
  if (startsWith(bytes, ZIP_LOCAL_FILE_MAGIC) || startsWith(bytes, ZIP_EMPTY_ARCHIVE_MAGIC)) {
    return unzipFirstEntry(bytes, options.entryExtension ?? '.xml', maxBytes);
  }
  if (bytes.length > maxBytes) {
    throw new ReportParseError(
      'too_large',
      `report is ${bytes.length} bytes, more than the ${maxBytes} allowed`,
    );
  }
  return { container: 'plain', bytes };
}

function gunzip(bytes: Uint8Array, maxBytes: number): Uint8Array {
  try {
    return new Uint8Array(gunzipSync(bytes, { maxOutputLength: maxBytes }));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new ReportParseError('too_large', `gzip content is larger than the ${maxBytes} bytes allowed`, {
        cause: error,
      });
    }
    throw asReportParseError('corrupt_container', 'gzip data is corrupt or truncated', error);
  }
}

function unzipFirstEntry(bytes: Uint8Array, extension: string, maxBytes: number): UnpackedReport {
  const wanted = extension.toLowerCase();
  const seen: string[] = [];
  let chosen: UnzipFileInfo | undefined;
  const isCandidate = (name: string) =>
    name.toLowerCase().endsWith(wanted) &&
    // macOS archivers add AppleDouble shadows ("__MACOSX/._report.xml") that are not the report.
    !name.startsWith('__MACOSX/') &&
    !name.split('/').pop()!.startsWith('._');

  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter: (file) => {
        seen.push(file.name);
        if (chosen || !isCandidate(file.name)) return false;
        if (file.originalSize > maxBytes) {
          throw new ReportParseError(
            'too_large',
            `zip entry "${file.name}" unpacks to ${file.originalSize} bytes, more than the ${maxBytes} allowed`,
          );
        }
        chosen = file;
        return true;
      },
    });
  } catch (error) {
    throw asReportParseError('corrupt_container', 'zip archive is corrupt or truncated', error);
  }

  const content = chosen ? files[chosen.name] : undefined;
  if (!chosen || !content) {
    const listing = seen.length > 0 ? `entries: ${seen.slice(0, 10).join(', ')}` : 'the archive is empty';
    throw new ReportParseError('empty_container', `zip archive holds no ${wanted} file (${listing})`);
  }
  // fflate sizes its output from the directory and does not check the CRC, so a short entry means damage.
  if (content.length !== chosen.originalSize) {
    throw new ReportParseError(
      'corrupt_container',
      `zip entry "${chosen.name}" unpacked to ${content.length} bytes, the archive says ${chosen.originalSize}`,
    );
  }
  return { container: 'zip', bytes: content, entry_name: chosen.name };
}
