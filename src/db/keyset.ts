// Where a listing's page starts (keyset pagination): a position in its (time, id) order,
// which a repository reads the rows after (or before) in one indexed range. The HTTP side
// carries it in an opaque cursor (http/pagination.ts); repositories take it from here, so
// none of them imports http/ (docs/design.md section 10).

/** Position in a listing's (time, id) order. */
export interface Position {
  readonly at: string;
  readonly id: string;
}
