import { ExpressAdapter } from '@nestjs/platform-express';
import { HttpAnswer } from './http-answer';

/** Nest's Express adapter, except that an HttpAnswer is written as it is, bytes and status. */
export class InventoryHttpAdapter extends ExpressAdapter {
  reply(response: any, body: any, statusCode?: number): any {
    if (body instanceof HttpAnswer) return body.writeTo(response);
    return super.reply(response, body, statusCode);
  }
}
