import { ValidationProblems } from './validation-messages';

/** One item of a write is unacceptable: its 406 envelope carries `problems` as the message. */
export class RecordProblems extends Error {
  readonly httpStatus = 406;

  constructor(readonly problems: ValidationProblems) {
    super('record is not valid');
    this.name = 'RecordProblems';
  }

  get publicMessage(): ValidationProblems {
    return this.problems;
  }

  static at(path: string, text: string): RecordProblems {
    return new RecordProblems({ [path]: text });
  }
}
