import { Controller, Get, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '@inventory/auth';
import { InventoryMetrics } from './inventory-metrics';

/**
 * Prometheus's text format. Public, like /health: it holds counts and timings, no record data
 * and no names beyond route patterns; an operator who exposes the port beyond the scraper
 * blocks the path at the proxy or sets INVENTORY_METRICS=false (README "Metrics").
 */
@Controller('metrics')
@Public()
@ApiTags('Metrics')
export class MetricsController {
  constructor(private readonly metrics: InventoryMetrics) {}

  @Get()
  @ApiOperation({ summary: 'Prometheus metrics: requests by family, method and status, latency, event-loop lag, store errors, process' })
  async scrape(@Res() reply: FastifyReply): Promise<void> {
    const text = await this.metrics.text();
    await reply.type(this.metrics.contentType).send(text);
  }
}
