import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { EnvelopeExceptionFilter } from './envelope-exception.filter';

/** Binds the error envelope filter globally, as a provider so tests get it too. */
@Module({ providers: [{ provide: APP_FILTER, useClass: EnvelopeExceptionFilter }] })
export class HttpCoreModule {}
