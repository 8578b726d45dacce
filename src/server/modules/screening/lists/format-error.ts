/** A file that is not in the format of the list it was given as; `line` is 1-based, in that file. */
export class ListFormatError extends Error {
  readonly code = 'list_format_invalid';
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${file}, line ${line}: ${reason}`);
    this.name = 'ListFormatError';
  }
}

/** A file past the import's bounds (docs/rules/screening.md#bounds): too many entries, or more memory than an import may take. */
export class ListBoundsError extends Error {
  readonly code = 'list_too_large';
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`);
    this.name = 'ListBoundsError';
  }
}
