// One budget of bytes shared by several streams at once: the files of one request (multipart parts, or
// source URLs fetched side by side) count against the review's aggregate limit as they flow, so a request
// is refused the moment it passes the limit, not after every file has been stored.

export class ByteBudget {
  private used = 0;

  /** `exceeded` makes the error thrown once the budget is passed. */
  constructor(
    readonly maxBytes: number,
    private readonly exceeded: () => Error,
  ) {}

  /** Bytes counted so far, over every stream. */
  get spent(): number {
    return this.used;
  }

  /** Counts `bytes` that just arrived; throws once the total passes the budget. */
  take(bytes: number): void {
    this.used += bytes;
    if (this.used > this.maxBytes) throw this.exceeded();
  }
}
