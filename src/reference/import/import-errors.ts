// A file that is not what `data import` expects: the message names what is missing, and
// the CLI prints it as its one error line (exit code 1). Nothing was swapped in.
export class ImportRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportRefused';
  }
}
