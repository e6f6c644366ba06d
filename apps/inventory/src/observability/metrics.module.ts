import { Module } from '@nestjs/common';
import { InventoryMetrics } from './inventory-metrics';
import { MetricsController } from './metrics.controller';

/** Imported only when INVENTORY_METRICS is on: off, there is no /metrics and nothing is counted. */
@Module({ controllers: [MetricsController], providers: [InventoryMetrics], exports: [InventoryMetrics] })
export class MetricsModule {}
