// Addresses on PostgreSQL, searched street first. A query of frequent words ("Rue Jan Van
// de", each word in 5 to 30 % of all addresses, together in a few hundred) costs a GIN scan
// of the addresses hundreds of milliseconds: it gathers a posting list of hundreds of
// thousands of rows. The same words among the streets (one row per street in a postal
// area, some 60 addresses each, postgres-indexes.ts) name a handful in a millisecond, and
// the addresses of those streets are read in key order from an index. The answer is the
// same: every address row is still checked against the whole tier. Which words name the
// streets: ../street-words.ts.

/** More streets than this and the addresses' own index answers instead (each street is an index probe). */
export const MOST_STREETS = 256;
