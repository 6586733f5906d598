import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../../src/audit/audit.service.js';
import { loadConfig } from '../../src/config.js';
import { registerHandlers } from '../../src/outbox/handlers.js';
import { openDatabase } from '../../src/platform/db/client.js';
import { migrate } from '../../src/platform/db/migrate.js';
import { sendTestText, updateTextSettings } from '../../src/text-messages/text-settings.service.js';
import { TextWorker } from '../../src/text-messages/text-worker.js';
import { createWorkspace } from '../../src/workspaces/workspaces.service.js';
import { openWritePath } from '../../src/write-path.js';
import { FixedClock } from '../helpers/clock.js';
import { FakeTwilio } from '../helpers/fake-twilio.js';

/**
 * A text worker killed (SIGKILL, a process of its own) after Twilio took the message and before
 * its answer was recorded: the next worker finds the message at Twilio and records it; Twilio gets
 * one create, not two.
 */
const SECRET_KEY = 'crash-test-secret-key-of-32-characters-at-least';
const dirs: string[] = [];
let fake: FakeTwilio | undefined;
let child: ChildProcess | undefined;
afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await fake?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('a text worker killed mid-send', () => {
  it('does not send twice', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'kairos-text-crash-'));
    dirs.push(dataDir);
    fake = await FakeTwilio.start();
    const config = { ...loadConfig({}), dataDir, secretKey: SECRET_KEY, twilioApiBase: fake.origin };

    // Set up: a workspace sending through Twilio, and one text queued.
    let database = await openDatabase({ dataDir, lockOwner: 'test' });
    await migrate(database);
    const { uow } = openWritePath(database.db);
    const { workspace } = await createWorkspace(uow, { slug: 'crash', name: 'Crash Studio' });
    await updateTextSettings(
      uow,
      workspace.id,
      {
        enabled: true,
        provider: 'twilio',
        customerTexts: ['confirmed'],
        reminderHours: [],
        whatsapp: false,
        sender: '+15005550006',
        twilioAccountSid: fake.accountSid,
        twilioAuthToken: fake.authToken,
        gatewayUrl: '',
        gatewaySecret: '',
        consent: 'optional',
      },
      config,
      Date.now(),
      CLI_ACTOR,
    );
    const fresh = await database.db
      .selectFrom('workspaces')
      .selectAll()
      .where('id', '=', workspace.id)
      .executeTakeFirstOrThrow();
    await sendTestText(uow, fresh, '+5511987654321', Date.now());
    await database.close();

    // The child claims the text and calls Twilio; Twilio takes it but holds its answer.
    fake.reply = () => 'hold';
    child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, '../helpers/text-worker-child.ts')],
      {
        env: { ...process.env, DATA_DIR: dataDir, SECRET_KEY, TWILIO_API_BASE: fake.origin },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<void>((resolve) => child!.once('exit', () => resolve()));
    await Promise.race([
      fake.waitForCreates(1, 60_000),
      exited.then(() => {
        throw new Error(`the worker exited before sending: ${output}`);
      }),
    ]);
    child.kill('SIGKILL');
    await exited;
    expect(output).not.toContain('ROUND_DONE');
    expect(fake.messages).toHaveLength(1);

    // A worker started after the claim's lease ran out takes the text over.
    fake.reply = () => 'accept';
    database = await openDatabase({ dataDir, lockOwner: 'test' });
    try {
      const before = await database.db.selectFrom('text_messages').selectAll().executeTakeFirstOrThrow();
      expect(before).toMatchObject({ state: 'sending', attempt_count: 1, provider_ref: null });
      const clock = new FixedClock(new Date(before.next_attempt_at.getTime() + 1_000).toISOString());
      const worker = new TextWorker({
        db: database.db,
        clock,
        handlers: registerHandlers([]),
        publicBase: 'http://127.0.0.1:9',
        config,
        workerId: 'after',
      });
      const round = await worker.runOnce(10);
      expect(round.outcomes).toEqual(['sent']);
      expect(fake.creates).toHaveLength(1);
      const after = await database.db.selectFrom('text_messages').selectAll().executeTakeFirstOrThrow();
      expect(after).toMatchObject({
        state: 'sent',
        attempt_count: 2,
        in_doubt: false,
        provider_ref: fake.messages[0]!.sid,
      });
      expect(after.last_response).toContain('found after an interrupted attempt');
    } finally {
      await database.close();
    }
  }, 120_000);
});
