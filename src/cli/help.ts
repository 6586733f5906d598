/** `--help`: the one place that documents the CLI's output contract. */
export const HELP = `Kairos CLI — operator commands on the store the server uses.

Usage: npm run --silent cli -- <command> [flags]

Commands:
  workspace create --slug S --name N [--currency EUR] [--locale en-US] [--demo]
      Creates a workspace with the default booking statuses and a first API key.
      --demo also fills it with the demo studio (two locations, services, staffers).
      -> {"workspace":{"uuid","slug","name"},"api_key":{"uuid","name","secret"}}
  key create --workspace S --name N
      -> {"api_key":{"uuid","name","secret"}}   (the secret is shown only here)
  key list --workspace S
      -> {"data":[{"uuid","name","secret_hint","created_at"}]}
  key delete --workspace S --uuid U
      -> {"deleted":true,"uuid":U}   (the key fails with 403 from the next request on)
  webhook <subcommand> ...
      Webhook subscriptions and deliveries; see "webhook --help".
  calendar-feed show|regenerate --workspace S (--staffer U | --user E)
      A staffer's or a member's calendar feed URL; regenerate makes one or gives it a new URL
      (the old one stops at once). -> {"url":"<PUBLIC_URL>/ical/....ics","regenerated_at":"..."}
  calendar-feed link --workspace S --user E (--staffer U | --none)
      Which staffer a member is: their own feed holds that staffer's bookings.
      -> {"user":E,"staffer_uuid":U|null}
  import customers|services|staffers|bookings --workspace S --file F.csv [--dry-run]
      Imports a CSV file row by row (docs/import-export.md); --dry-run only says what each row
      would do. Rows that match what the workspace has are left alone.
      -> {"kind","ran","counts":{"create","update","unchanged","error"},"rows":[{"line","action","label","errors"}]}
  user create --email E [--name N]
      A panel user with a one-time password (chosen anew at the first sign-in).
      -> {"user":{"uuid","email","name"},"one_time_password":"..."}
  user add --email E --workspace S --role owner|admin|staff
      Gives an existing user a role in a workspace (or changes it).
      -> {"user":{"uuid","email"},"workspace":S,"role":R}
  user reset-password --email E
      A one-time link to set a new password (an hour); every session of the user ends when used.
      -> {"reset_url":"<PUBLIC_URL>/panel/reset-password/...","expires_at":"..."}
  user delete --email E
      Deletes the user; their sessions end at once.  -> {"deleted":true,"email":E}
  db migrate
      Applies pending migrations and nothing else (no demo workspace). -> {"applied":["0015_..."]}
  db distribute
      On a Citus coordinator (DATABASE_URL): makes the global tables reference tables and
      distributes every tenant table on workspace_id, co-located, in one transaction; rows
      already there move into the shards. Migrations after it place their new tables
      themselves. -> {"statements":["SELECT create_reference_table('workspaces')", ...]}
      (docs/operations/scale-out.md)
  help, --help
      This text.

Output:
  Success: exit code 0 and exactly one JSON document on stdout.
  Failure: nothing on stdout; a non-zero exit code, and the last line of stderr is
    {"error":{"code":"...","message":"..."}}  (validation errors add "errors":{"field":["..."]})
  Exit codes: 0 success; 1 failed (codes: not_found, validation_failed, data_dir_locked,
    not_available, distribution_refused,
    internal_error); 2 bad command line (code: usage).
  Progress notes (e.g. migrations applied) also go to stderr, before any error line.

Environment (the same as the server):
  DATA_DIR      folder of the embedded store (default ./data). Only one process may open it:
                while the server runs on it, stop the server or use DATABASE_URL.
  DATABASE_URL  postgres://... to work on a PostgreSQL server instead (safe next to running servers).
`;
