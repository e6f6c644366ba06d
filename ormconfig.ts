import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from './apps/inventory/src/config/load-config';
import { dataSourceOptions } from './apps/inventory/src/database/data-source-options';

/** For the TypeORM CLI: `npm run migration:run` migrates the database DATABASE_URL names. */
export default new DataSource(dataSourceOptions(loadConfig(process.env).database));
