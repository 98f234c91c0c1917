/** What went wrong, fit for a finding's reason or a log line: an Error's message, or anything else as text. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
