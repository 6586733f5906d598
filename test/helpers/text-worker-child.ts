/**
 * A text worker in a process of its own, for the test that kills it mid-send
 * (test/e2e/text-durability.test.ts): opens the embedded store in DATA_DIR, runs one
 * round against the fake Twilio at TWILIO_API_BASE, prints ROUND_DONE when the round ends. The
 * test kills it while the fake holds Twilio's answer.
 */
import { loadConfig } from '../../src/config.js';
import { registerHandlers } from '../../src/outbox/handlers.js';
import { openDatabase } from '../../src/platform/db/client.js';
import { systemClock } from '../../src/platform/http/types.js';
import { TextWorker } from '../../src/text-messages/text-worker.js';

const config = loadConfig(process.env);
const database = await openDatabase({ dataDir: config.dataDir, lockOwner: 'text-worker-child' });
const worker = new TextWorker({
  db: database.db,
  clock: systemClock,
  handlers: registerHandlers([]),
  publicBase: 'http://127.0.0.1:9',
  config,
  workerId: 'child',
});
console.log('CLAIMING');
await worker.runOnce(10);
console.log('ROUND_DONE');
await database.close();
