import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seedCalendar } from './bench/calendar.ts';
import { openDatabase } from './dist/src/platform/db/client.js';
import { buildApp } from './dist/src/app.js';
import { loadConfig } from './dist/src/config.js';
const dir = mkdtempSync(path.join(os.tmpdir(), 'probe-'));
const seeded = await seedCalendar(path.join(dir, 'data'));
const database = await openDatabase({ dataDir: path.join(dir, 'data'), lockOwner: 'probe' });
const app = await buildApp({ database, config: { ...loadConfig({}), worker: 'off' } });
await app.ready();
const url = `/panel/calendar?location=${seeded.location}&view=week&date=2026-03-23&staffer=all`;
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const times: number[] = [];
for (let i = 0; i < 80; i++) {
  const t = cpu();
  const r = await app.inject({ method: 'GET', url, headers: { cookie: `kairos_session=${seeded.token}` } });
  if (r.statusCode !== 200) throw new Error(String(r.statusCode));
  times.push(cpu() - t);
}
times.sort((a, b) => a - b);
console.log('cpu ms min/median/p95', times[0]?.toFixed(1), times[40]?.toFixed(1), times[76]?.toFixed(1));
await app.close(); await database.close();
