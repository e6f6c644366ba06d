import { Body, Delete, Get, Param, Post, Put, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiParam } from '@nestjs/swagger';
import { HttpAnswer } from '@inventory/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RecordService } from '../service/record.service';
import { readAnswer, writeAnswer } from './record-answer';
import { queryFromRequest } from './record-query';
import { writeInChunks } from './batch-chunks';
import { requestBudget } from './request-budget';

/** Every family route takes an optional `{id}` segment; the adapter accepts a trailing slash. */
const RECORD_ROUTE = ['', ':id'];

// Bodies, the `q` parameter and responses are documented per family by documentFamilies().
const idParam = ApiParam({ name: 'id', required: false, description: 'record id' });

/**
 * The four operations, identical for every family; `createRecordController` subclasses this with
 * the family's path, auth scheme and service. Handlers only pass the request's parts along.
 */
export abstract class RecordController {
  protected constructor(
    private readonly records: RecordService,
    /** INVENTORY_QUERY_TIMEOUT: how long the query of a read or delete may run; INVENTORY_BODY_LIMIT for `?q=`. */
    private readonly queries: { timeoutMs: number; sizeLimit: number },
  ) {}

  @Post(RECORD_ROUTE)
  @ApiOperation({ summary: 'Create one record or a batch' })
  @idParam
  async create(@Param('id') id: string | undefined, @Body() body: unknown): Promise<HttpAnswer> {
    return writeAnswer(await writeInChunks(body, (part) => this.records.create(id, part)));
  }

  @Get(RECORD_ROUTE)
  @ApiOperation({ summary: 'Read records, optionally filtered by a query body' })
  @idParam
  async read(
    @Param('id') id: string | undefined,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<HttpAnswer> {
    const query = queryFromRequest(request, this.queries.sizeLimit);
    return readAnswer(await this.records.read(id, query, requestBudget(reply, this.queries.timeoutMs)));
  }

  @Put(RECORD_ROUTE)
  @ApiOperation({ summary: 'Update (deep merge) one record or a batch' })
  @idParam
  async update(@Param('id') id: string | undefined, @Body() body: unknown): Promise<HttpAnswer> {
    return writeAnswer(await writeInChunks(body, (part) => this.records.update(id, part)));
  }

  @Delete(RECORD_ROUTE)
  @ApiOperation({ summary: 'Delete the records a query matches (all without a query)' })
  @idParam
  async remove(
    @Param('id') id: string | undefined,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<HttpAnswer> {
    const query = queryFromRequest(request, this.queries.sizeLimit);
    return writeAnswer(await this.records.remove(id, query, requestBudget(reply, this.queries.timeoutMs)));
  }
}
