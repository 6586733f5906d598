/**
 * A separate process for test/scale/invalidation-bus.test.ts: opens a bus, publishes one
 * workspace id, closes. Usage: node --import tsx test/scale/bus-publish.ts <redis|postgres> <url> <channel> <workspaceId>
 */
import { openInvalidationBus } from '../../src/platform/bus/open-bus.js';

const [kind, url, channel, workspaceId] = process.argv.slice(2);
const bus = await openInvalidationBus({
  ...(kind === 'redis' ? { redisUrl: url } : { databaseUrl: url }),
  channel: channel!,
  onError: (error) => console.error(error),
});
await bus.publish(workspaceId!);
await bus.close();
