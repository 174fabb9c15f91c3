// Why a process could not use its PostgreSQL database at start-up, in one line an operator
// can act on (docs/postgresql.md, "PostgreSQL"), instead of the driver's stack trace: a
// database that does not exist, a login refused, a server that cannot be reached. The line
// names the server and the database from DATABASE_URL, never its password.

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
/** SQLSTATE invalid_catalog_name, invalid_password, invalid_authorization_specification. */
const MISSING_DATABASE = '3D000';
const LOGIN_REFUSED = new Set(['28P01', '28000']);

/** The one-line explanation, or undefined when the error is not one of these. */
export function databaseStartProblem(error: unknown, databaseUrl: string | undefined): string | undefined {
  if (databaseUrl === undefined || error === null || typeof error !== 'object') return undefined;
  const code = errorCode(error);
  if (code === undefined) return undefined;
  const url = URL.parse(databaseUrl);
  const server = `PostgreSQL at ${url?.hostname || 'localhost'}:${url?.port || '5432'}`;
  const database = decodeURIComponent(url?.pathname.slice(1) ?? '') || '(the user name)';
  const message = error instanceof Error ? error.message.replace(/\s*\n\s*/g, ' ') : String(error);
  if (code === MISSING_DATABASE) {
    return `${server} has no database "${database}": create it (createdb ${JSON.stringify(database)}) or correct DATABASE_URL`;
  }
  if (LOGIN_REFUSED.has(code)) return `${server} refused the login: ${message} (check DATABASE_URL)`;
  if (UNREACHABLE.has(code)) {
    return `${server} cannot be reached (${code}): is it running, and are the host and port in DATABASE_URL right?`;
  }
  return undefined;
}

/** A driver error's SQLSTATE or system error code; a connection tried on several addresses reports its first. */
function errorCode(error: object): string | undefined {
  const { code, errors } = error as { code?: unknown; errors?: unknown };
  if (typeof code === 'string') return code;
  const [first] = Array.isArray(errors) ? errors : [];
  return first !== null && typeof first === 'object' ? errorCode(first) : undefined;
}
