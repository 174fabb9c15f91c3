// Prepared statements kept per SQL text. A connection runs the same few texts again and
// again, and parsing dominates the cost of a short statement; but some texts are built per
// request (one placeholder per item of a list, one condition per word of a search), so a
// cache keyed by the text would grow with what clients send. Each cache therefore keeps at
// most `max` statements, dropping the least recently used: a hot statement stays however
// many one-off texts pass through (docs/benchmarks.md, "Memory under load", lists every bound).
import { LRUCache } from 'lru-cache';

export class StatementCache<Statement extends object> {
  readonly max: number;
  readonly #prepare: (sql: string) => Statement;
  readonly #statements: LRUCache<string, Statement>;

  constructor(max: number, prepare: (sql: string) => Statement) {
    this.max = max;
    this.#prepare = prepare;
    this.#statements = new LRUCache({ max });
  }

  /** The statement for `sql`, prepared now if it is not kept. */
  get(sql: string): Statement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  /** Statements kept now. */
  get size(): number {
    return this.#statements.size;
  }

  clear(): void {
    this.#statements.clear();
  }
}
