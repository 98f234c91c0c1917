// pdfjs-dist ships no types for its worker module; pdfjs.ts loads it only for its side effect
// (globalThis.pdfjsWorker, pdf.js's worker side in this thread).
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
