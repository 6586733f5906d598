-- Kairos schema. Every tenant table carries workspace_id and every key includes it (DESIGN §4.3).
CREATE EXTENSION IF NOT EXISTS btree_gist;

CREATE TABLE workspaces (
  id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  slug               text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9][a-z0-9-]{1,62}$'),
  name               text NOT NULL,
  currency           text NOT NULL DEFAULT 'EUR' CHECK (currency ~ '^[A-Z]{3}$'),
  locale             text NOT NULL DEFAULT 'en-US',
  -- field name -> 'hidden' | 'optional' | 'required'
  booking_form       jsonb NOT NULL DEFAULT '{"customer_first_name":"optional","customer_last_name":"optional","customer_email":"optional","booking_comment":"optional","booking_callback":"optional"}',
  staffer_selection  text NOT NULL DEFAULT 'required' CHECK (staffer_selection IN ('required', 'automatic')),
  slot_step_minutes  integer NOT NULL DEFAULT 15 CHECK (slot_step_minutes BETWEEN 5 AND 720),
  min_notice_minutes integer NOT NULL DEFAULT 60 CHECK (min_notice_minutes BETWEEN 0 AND 525600),
  horizon_days       integer NOT NULL DEFAULT 90 CHECK (horizon_days BETWEEN 1 AND 730),
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  id           uuid NOT NULL DEFAULT gen_random_uuid(),
  name         text NOT NULL,
  -- sha256 of the secret, hex; the secret itself is never stored
  secret_hash  text NOT NULL,
  secret_hint  text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  deleted_at   timestamptz,
  PRIMARY KEY (workspace_id, id),
  UNIQUE (workspace_id, secret_hash)
);

CREATE TABLE locations (
  workspace_id  uuid NOT NULL REFERENCES workspaces (id),
  id            uuid NOT NULL DEFAULT gen_random_uuid(),
  name          text NOT NULL,
  description   text NOT NULL DEFAULT '',
  address_1     text NOT NULL DEFAULT '',
  address_2     text NOT NULL DEFAULT '',
  city          text NOT NULL DEFAULT '',
  postal_code   text NOT NULL DEFAULT '',
  country_iso   text NOT NULL DEFAULT '',
  lat           double precision,
  lng           double precision,
  timezone      text NOT NULL,
  phone         text NOT NULL DEFAULT '',
  opening_hours jsonb NOT NULL DEFAULT '{}',
  images        jsonb NOT NULL DEFAULT '[]',
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  archived_at   timestamptz,
  PRIMARY KEY (workspace_id, id)
);
CREATE INDEX locations_list ON locations (workspace_id, created_at, id) WHERE archived_at IS NULL;

CREATE TABLE service_categories (
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  id           uuid NOT NULL DEFAULT gen_random_uuid(),
  name         text NOT NULL,
  position     integer NOT NULL DEFAULT 0,
  PRIMARY KEY (workspace_id, id),
  UNIQUE (workspace_id, name)
);

CREATE TABLE services (
  workspace_id          uuid NOT NULL REFERENCES workspaces (id),
  id                    uuid NOT NULL DEFAULT gen_random_uuid(),
  category_id           uuid,
  name                  text NOT NULL,
  description           text NOT NULL DEFAULT '',
  price                 integer NOT NULL DEFAULT 0 CHECK (price >= 0),
  duration_minutes      integer NOT NULL CHECK (duration_minutes BETWEEN 1 AND 1440),
  capacity              integer NOT NULL DEFAULT 1 CHECK (capacity BETWEEN 1 AND 1000),
  buffer_before_minutes integer NOT NULL DEFAULT 0 CHECK (buffer_before_minutes BETWEEN 0 AND 720),
  buffer_after_minutes  integer NOT NULL DEFAULT 0 CHECK (buffer_after_minutes BETWEEN 0 AND 720),
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now(),
  archived_at           timestamptz,
  PRIMARY KEY (workspace_id, id),
  FOREIGN KEY (workspace_id, category_id) REFERENCES service_categories (workspace_id, id)
);

CREATE TABLE service_locations (
  workspace_id uuid NOT NULL,
  service_id   uuid NOT NULL,
  location_id  uuid NOT NULL,
  PRIMARY KEY (workspace_id, service_id, location_id),
  FOREIGN KEY (workspace_id, service_id) REFERENCES services (workspace_id, id),
  FOREIGN KEY (workspace_id, location_id) REFERENCES locations (workspace_id, id)
);
CREATE INDEX service_locations_by_location ON service_locations (workspace_id, location_id);

CREATE TABLE staffers (
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  id           uuid NOT NULL DEFAULT gen_random_uuid(),
  first_name   text NOT NULL,
  last_name    text NOT NULL DEFAULT '',
  position     text NOT NULL DEFAULT '',
  description  text NOT NULL DEFAULT '',
  avatar       text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  archived_at  timestamptz,
  PRIMARY KEY (workspace_id, id)
);

-- Which services a staffer provides at which location.
CREATE TABLE staffer_services (
  workspace_id uuid NOT NULL,
  staffer_id   uuid NOT NULL,
  location_id  uuid NOT NULL,
  service_id   uuid NOT NULL,
  PRIMARY KEY (workspace_id, staffer_id, location_id, service_id),
  FOREIGN KEY (workspace_id, staffer_id) REFERENCES staffers (workspace_id, id),
  FOREIGN KEY (workspace_id, location_id) REFERENCES locations (workspace_id, id),
  FOREIGN KEY (workspace_id, service_id) REFERENCES services (workspace_id, id)
);
CREATE INDEX staffer_services_by_location ON staffer_services (workspace_id, location_id, service_id);

-- A staffer's working hours at a location, as wall times in the location's zone.
-- weekly/breaks: {"mon":[{"from":"09:00","to":"17:00"}],...}; overrides: [{"date","intervals","breaks"}]
CREATE TABLE schedules (
  workspace_id uuid NOT NULL,
  staffer_id   uuid NOT NULL,
  location_id  uuid NOT NULL,
  weekly       jsonb NOT NULL DEFAULT '{}',
  breaks       jsonb NOT NULL DEFAULT '{}',
  overrides    jsonb NOT NULL DEFAULT '[]',
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, staffer_id, location_id),
  FOREIGN KEY (workspace_id, staffer_id) REFERENCES staffers (workspace_id, id),
  FOREIGN KEY (workspace_id, location_id) REFERENCES locations (workspace_id, id)
);

CREATE TABLE payment_accounts (
  workspace_id uuid NOT NULL,
  id           uuid NOT NULL DEFAULT gen_random_uuid(),
  location_id  uuid NOT NULL,
  name         text NOT NULL,
  type         text NOT NULL DEFAULT 'cash' CHECK (type IN ('cash', 'card', 'bank_transfer', 'online', 'other')),
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  archived_at  timestamptz,
  PRIMARY KEY (workspace_id, id),
  FOREIGN KEY (workspace_id, location_id) REFERENCES locations (workspace_id, id)
);

CREATE TABLE booking_statuses (
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  id           uuid NOT NULL DEFAULT gen_random_uuid(),
  name         text NOT NULL,
  type         text NOT NULL CHECK (type IN ('new', 'confirmed', 'custom', 'completed', 'canceled')),
  color        text NOT NULL DEFAULT '#607d8b',
  is_default   boolean NOT NULL DEFAULT false,
  position     integer NOT NULL DEFAULT 0,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  archived_at  timestamptz,
  PRIMARY KEY (workspace_id, id)
);
-- Exactly one default status, and one status each of the built-in types the flows rely on.
CREATE UNIQUE INDEX booking_statuses_one_default ON booking_statuses (workspace_id) WHERE is_default;
CREATE UNIQUE INDEX booking_statuses_one_builtin ON booking_statuses (workspace_id, type)
  WHERE type IN ('new', 'confirmed', 'completed', 'canceled');

CREATE TABLE customers (
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  id           uuid NOT NULL DEFAULT gen_random_uuid(),
  phone        text NOT NULL, -- E.164
  first_name   text NOT NULL DEFAULT '',
  last_name    text NOT NULL DEFAULT '',
  email        text NOT NULL DEFAULT '',
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id),
  UNIQUE (workspace_id, phone)
);

-- What makes double booking impossible (DESIGN §4.1). One row per staffer and service start: an
-- individual booking fills its single seat; a group class row gains a seat per booking up to its
-- capacity (CHECK). Rows holding seats may not overlap in time for one staffer (EXCLUDE).
-- span includes the service's buffers.
CREATE TABLE occupancies (
  workspace_id  uuid NOT NULL,
  id            uuid NOT NULL DEFAULT gen_random_uuid(),
  staffer_id    uuid NOT NULL,
  location_id   uuid NOT NULL,
  service_id    uuid NOT NULL,
  service_start timestamptz NOT NULL,
  span          tstzrange NOT NULL,
  capacity      integer NOT NULL CHECK (capacity >= 1),
  seats_taken   integer NOT NULL CHECK (seats_taken >= 0 AND seats_taken <= capacity),
  PRIMARY KEY (workspace_id, id),
  UNIQUE (workspace_id, staffer_id, service_start, service_id),
  FOREIGN KEY (workspace_id, staffer_id) REFERENCES staffers (workspace_id, id),
  CONSTRAINT occupancies_no_overlap EXCLUDE USING gist (workspace_id WITH =, staffer_id WITH =, span WITH &&)
    WHERE (seats_taken > 0)
);

CREATE TABLE bookings (
  workspace_id       uuid NOT NULL REFERENCES workspaces (id),
  id                 uuid NOT NULL DEFAULT gen_random_uuid(),
  order_id           uuid NOT NULL DEFAULT gen_random_uuid(),
  location_id        uuid NOT NULL,
  staffer_id         uuid NOT NULL,
  customer_id        uuid NOT NULL,
  status_id          uuid NOT NULL,
  occupancy_id       uuid,
  start_time         timestamptz NOT NULL,
  end_time           timestamptz NOT NULL,
  quantity           integer NOT NULL DEFAULT 1 CHECK (quantity >= 1),
  cancel_reason      text CHECK (cancel_reason IN ('canceled', 'didnt_come', 'postponed', 'wrong_order', 'spam', 'other', 'abandoned', 'rescheduled', 'not_confirmed')),
  canceled_at        timestamptz,
  completed_at       timestamptz,
  booking_comment    text NOT NULL DEFAULT '',
  booking_callback   boolean,
  source             text NOT NULL DEFAULT 'api',
  event_sequence     integer NOT NULL DEFAULT 0,
  created_by_key_id  uuid,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id),
  CHECK (end_time > start_time),
  FOREIGN KEY (workspace_id, location_id) REFERENCES locations (workspace_id, id),
  FOREIGN KEY (workspace_id, staffer_id) REFERENCES staffers (workspace_id, id),
  FOREIGN KEY (workspace_id, customer_id) REFERENCES customers (workspace_id, id),
  FOREIGN KEY (workspace_id, status_id) REFERENCES booking_statuses (workspace_id, id),
  FOREIGN KEY (workspace_id, occupancy_id) REFERENCES occupancies (workspace_id, id)
);
CREATE INDEX bookings_by_start ON bookings (workspace_id, start_time, id);
CREATE INDEX bookings_by_updated ON bookings (workspace_id, updated_at);
CREATE INDEX bookings_by_customer ON bookings (workspace_id, customer_id, start_time);
CREATE INDEX bookings_by_staffer ON bookings (workspace_id, staffer_id, start_time);

-- Order lines: the services of a booking.
CREATE TABLE booking_services (
  workspace_id     uuid NOT NULL,
  id               uuid NOT NULL DEFAULT gen_random_uuid(),
  booking_id       uuid NOT NULL,
  service_id       uuid NOT NULL,
  name             text NOT NULL,
  quantity         integer NOT NULL DEFAULT 1,
  price            integer NOT NULL,
  original_price   integer NOT NULL,
  discount         integer NOT NULL DEFAULT 0,
  duration_minutes integer NOT NULL,
  position         integer NOT NULL DEFAULT 0,
  PRIMARY KEY (workspace_id, id),
  FOREIGN KEY (workspace_id, booking_id) REFERENCES bookings (workspace_id, id),
  FOREIGN KEY (workspace_id, service_id) REFERENCES services (workspace_id, id)
);
CREATE INDEX booking_services_by_booking ON booking_services (workspace_id, booking_id, position);

CREATE TABLE payments (
  workspace_id       uuid NOT NULL,
  id                 uuid NOT NULL DEFAULT gen_random_uuid(),
  booking_id         uuid NOT NULL,
  payment_account_id uuid NOT NULL,
  amount             integer NOT NULL CHECK (amount >= 0),
  created_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id),
  FOREIGN KEY (workspace_id, booking_id) REFERENCES bookings (workspace_id, id),
  FOREIGN KEY (workspace_id, payment_account_id) REFERENCES payment_accounts (workspace_id, id)
);
CREATE INDEX payments_by_booking ON payments (workspace_id, booking_id);

CREATE TABLE public_notes (
  workspace_id uuid NOT NULL,
  id           uuid NOT NULL DEFAULT gen_random_uuid(),
  booking_id   uuid NOT NULL,
  value        text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (workspace_id, id),
  FOREIGN KEY (workspace_id, booking_id) REFERENCES bookings (workspace_id, id)
);
CREATE INDEX public_notes_by_booking ON public_notes (workspace_id, booking_id, created_at);

CREATE TABLE booking_history (
  workspace_id uuid NOT NULL,
  id           uuid NOT NULL DEFAULT gen_random_uuid(),
  booking_id   uuid NOT NULL,
  action       text NOT NULL,
  changes      jsonb NOT NULL DEFAULT '{}',
  actor_type   text NOT NULL CHECK (actor_type IN ('api_key', 'user', 'system')),
  actor_id     uuid,
  created_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (workspace_id, id),
  FOREIGN KEY (workspace_id, booking_id) REFERENCES bookings (workspace_id, id)
);
CREATE INDEX booking_history_by_booking ON booking_history (workspace_id, booking_id, created_at);

-- Transactional outbox (DESIGN §4.4): events commit with the change that caused them.
CREATE TABLE outbox_events (
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  id           uuid NOT NULL DEFAULT gen_random_uuid(),
  booking_id   uuid,
  type         text NOT NULL,
  sequence     integer NOT NULL,
  payload      jsonb NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
  dispatched_at timestamptz,
  PRIMARY KEY (workspace_id, id)
);
CREATE INDEX outbox_events_pending ON outbox_events (created_at) WHERE dispatched_at IS NULL;
CREATE INDEX outbox_events_by_booking ON outbox_events (workspace_id, booking_id, sequence);

CREATE TABLE idempotency_keys (
  workspace_id  uuid NOT NULL REFERENCES workspaces (id),
  key           text NOT NULL,
  method        text NOT NULL,
  path          text NOT NULL,
  request_hash  text NOT NULL,
  status_code   integer,
  response_body jsonb,
  created_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, key)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (created_at);
