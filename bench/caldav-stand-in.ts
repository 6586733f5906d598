import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A CalDAV stand-in for the calendar-sync bench: one calendar in memory, answering the two
 * REPORTs a sync uses (RFC 6578 sync-collection, RFC 4791 calendar-multiget) as Radicale does.
 * Why not Radicale itself: Radicale parses each object once with vobject before it can answer
 * (about 20 objects a second on this shared machine: 20,000 objects take a quarter of an hour),
 * so a bench on it measures Radicale. The tests run against the real Radicale
 * (src/calendar-sync/**.test.ts); this measures Kairos's side.
 */
export interface StandIn {
  url: string;
  calendarUrl: string;
  put(name: string, ics: string): void;
  remove(name: string): void;
  close(): Promise<void>;
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export async function startCaldavStandIn(): Promise<StandIn> {
  const objects = new Map<string, { etag: string; ics: string; version: number }>();
  const removed = new Map<string, number>();
  let version = 0;
  const path = '/anna/work/';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const reply = (xml: string) => {
        res.writeHead(207, { 'content-type': 'application/xml; charset=utf-8' });
        res.end(
          `<?xml version="1.0" encoding="utf-8"?><multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">${xml}</multistatus>`,
        );
      };
      if (req.method === 'REPORT' && body.includes('sync-collection')) {
        const token = /<d:sync-token>([^<]*)<\/d:sync-token>/.exec(body)?.[1] ?? '';
        const since = token === '' ? 0 : Number(token.split(':').pop());
        const out: string[] = [];
        for (const [name, o] of objects) {
          if (o.version > since)
            out.push(
              `<response><href>${path}${name}</href><propstat><prop><getetag>${o.etag}</getetag></prop><status>HTTP/1.1 200 OK</status></propstat></response>`,
            );
        }
        if (since > 0) {
          for (const [name, v] of removed) {
            if (v > since)
              out.push(
                `<response><href>${path}${name}</href><status>HTTP/1.1 404 Not Found</status></response>`,
              );
          }
        }
        reply(`${out.join('')}<sync-token>urn:kairos-bench:${version}</sync-token>`);
        return;
      }
      if (req.method === 'REPORT' && body.includes('calendar-multiget')) {
        const out: string[] = [];
        for (const m of body.matchAll(/<d:href>([^<]*)<\/d:href>/g)) {
          const name = m[1]!.slice(path.length);
          const o = objects.get(name);
          if (!o) continue;
          out.push(
            `<response><href>${path}${name}</href><propstat><prop><getetag>${o.etag}</getetag><C:calendar-data>${escapeXml(o.ics)}</C:calendar-data></prop><status>HTTP/1.1 200 OK</status></propstat></response>`,
          );
        }
        reply(out.join(''));
        return;
      }
      res.writeHead(405);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url,
    calendarUrl: `${url}anna/work/`,
    put(name, ics) {
      version += 1;
      objects.set(name, { etag: `"${version}"`, ics, version });
      removed.delete(name);
    },
    remove(name) {
      version += 1;
      objects.delete(name);
      removed.set(name, version);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
