import { assertSafeRecords } from './body-guard';
import { JsonDepthScanner } from './json-depth';
import { keepSentTexts } from './sent-texts';

const BACKSLASH = 0x5c;

/**
 * What the service checks of every request body (the HTTP layer's `BodyInspector`): nesting
 * refused while the bytes arrive, then the parsed body guarded (`assertSafeRecords`), and each
 * record's text kept to be stored as sent (`keepSentTexts`), from the same two passes.
 */
export class RecordBodyInspector {
  private readonly scanner = new JsonDepthScanner();

  push(chunk: Buffer): void {
    this.scanner.push(chunk);
  }

  inspect(body: unknown, _text: string, bytes: Buffer): void {
    keepSentTexts(body, assertSafeRecords(body, bytes.includes(BACKSLASH)), this.scanner.items(), bytes);
  }
}
