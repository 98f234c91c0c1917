/**
 * A reader cannot run on this machine (an OCR worker or a pdf.js thread that does not start, the canvas
 * module missing): the worker's fault, not the file's, so the analysis fails and is retried rather than
 * the file called unreadable.
 */
export class ReaderUnavailable extends Error {
  override name = 'ReaderUnavailable';
}
