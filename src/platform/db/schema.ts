import type { ColumnType, Generated, GeneratedAlways } from 'kysely';

/** Column types of migrations/*.sql, for Kysely. Keep in step with the SQL. */
/** A timestamptz with a default (created_at, updated_at): an insert may leave it out. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** A timestamptz without a default: every insert names it. */
type Instant = ColumnType<Date, Date | string, Date | string>;
/** Set by the code on insert (no default in the SQL). */
type TimestampRequired = Instant;
type TimestampNullable = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** A jsonb column with a default. */
type Json<T> = ColumnType<T, string | undefined, string>;
/** A jsonb column without a default. */
type JsonRequired<T> = ColumnType<T, string, string>;
/** A bigint identity (GENERATED ALWAYS): read only. pg reads it as a number, PGlite may as a bigint. */
type IntId = ColumnType<number | bigint, never, never>;

export type BookingFormMode = 'hidden' | 'optional' | 'required';
export type BookingFormField =
  | 'customer_first_name'
  | 'customer_last_name'
  | 'customer_email'
  | 'booking_comment'
  | 'booking_callback';
export type BookingForm = Record<BookingFormField, BookingFormMode>;
export type StatusType = 'new' | 'confirmed' | 'custom' | 'completed' | 'canceled';
export type PaymentAccountType = 'cash' | 'card' | 'bank_transfer' | 'online' | 'other';

export interface TimeRangeJson {
  from: string;
  to: string;
}
export type WeeklyJson = Partial<
  Record<'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun', TimeRangeJson[]>
>;
export interface OverrideJson {
  date: string;
  intervals: TimeRangeJson[];
  breaks?: TimeRangeJson[];
}

export interface WorkspacesTable {
  id: Generated<string>;
  slug: string;
  name: string;
  currency: Generated<string>;
  locale: Generated<string>;
  booking_form: ColumnType<BookingForm, string | undefined, string>;
  staffer_selection: Generated<'required' | 'automatic'>;
  slot_step_minutes: Generated<number>;
  min_notice_minutes: Generated<number>;
  horizon_days: Generated<number>;
  /** ISO 3166-1 alpha-2, or '' when not set. */
  country_iso: Generated<string>;
  contact_phone: Generated<string>;
  contact_email: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** migrations/0008_booking_page.sql */
  manage_cutoff_minutes: Generated<number>;
  embed_origins: ColumnType<string[], string | undefined, string>;
  booking_page_secret: Generated<string>;
  /** migrations/0011_notifications.sql; read through src/notifications/notification-settings.rules.ts */
  notification_settings: Json<Record<string, unknown>>;
  /** migrations/0025_customer_erasure.sql: erase customers with no booking for this long; null: never. */
  customer_retention_months: number | null;
  /** migrations/0020_text_messages.sql; read through src/text-messages/text-settings.rules.ts */
  text_settings: Json<Record<string, unknown>>;
  /** Sealed by src/platform/secrets.ts; null = no provider credentials saved. */
  text_credentials: string | null;
  /** migrations/0028_payments.sql; read through src/payments/payment-settings.rules.ts */
  payment_settings: Json<Record<string, unknown>>;
  /** Sealed by src/platform/secrets.ts; null = no payment provider connected. */
  payment_credentials: string | null;
  /** migrations/0039_waitlist.sql; read through src/waitlist/waitlist-settings.rules.ts */
  waitlist_settings: Json<Record<string, unknown>>;
}

export interface ApiKeysTable {
  workspace_id: string;
  id: Generated<string>;
  name: string;
  secret_hash: string;
  secret_hint: string;
  created_at: Timestamp;
  deleted_at: TimestampNullable;
  /** Written at most once a minute per key (src/app/api/api-auth.ts). */
  last_used_at: TimestampNullable;
  /** The panel user who made it; null for keys from the CLI or first run. */
  created_by: string | null;
}

export interface LocationsTable {
  workspace_id: string;
  id: Generated<string>;
  int_id: IntId;
  name: string;
  description: Generated<string>;
  address_1: Generated<string>;
  address_2: Generated<string>;
  city: Generated<string>;
  postal_code: Generated<string>;
  country_iso: Generated<string>;
  lat: number | null;
  lng: number | null;
  timezone: string;
  phone: Generated<string>;
  opening_hours: Json<WeeklyJson>;
  images: Json<string[]>;
  created_at: Timestamp;
  updated_at: Timestamp;
  archived_at: TimestampNullable;
  /** migrations/0020_text_messages.sql: 'HH:MM-HH:MM' local, null = 21:00-08:00. */
  text_quiet_hours: string | null;
}

export interface ServiceCategoriesTable {
  workspace_id: string;
  id: Generated<string>;
  name: string;
  position: Generated<number>;
}

export interface ServicesTable {
  workspace_id: string;
  id: Generated<string>;
  int_id: IntId;
  category_id: string | null;
  name: string;
  description: Generated<string>;
  price: Generated<number>;
  duration_minutes: number;
  capacity: Generated<number>;
  buffer_before_minutes: Generated<number>;
  buffer_after_minutes: Generated<number>;
  /** migrations/0028_payments.sql; read through src/payments/payment-policy.rules.ts ('{}' = none). */
  payment_policy: Json<Record<string, unknown>>;
  /** migrations/0035_resources.sql; read through src/resources/resource-needs.rules.ts ('[]' = none). */
  resource_requirements: ColumnType<ResourceRequirementJson[], string | undefined, string>;
  /** migrations/0038_booking_series.sql: offered in series on the booking page. */
  series_bookable: Generated<boolean>;
  /** migrations/0042_rentals.sql: false = a rental, booked with its resources and no staffer. */
  staffer_needed: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
  archived_at: TimestampNullable;
}

/** One requirement of a service (migrations/0035_resources.sql). */
export interface ResourceRequirementJson {
  type: string;
  units: number;
  /** A named unit; null = any free units of the type at the booking's location. */
  resource_id: string | null;
}

export interface ServiceLocationsTable {
  workspace_id: string;
  service_id: string;
  location_id: string;
}

export interface StaffersTable {
  workspace_id: string;
  id: Generated<string>;
  first_name: string;
  last_name: Generated<string>;
  position: Generated<string>;
  description: Generated<string>;
  avatar: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  archived_at: TimestampNullable;
  /**
   * migrations/0011_notifications.sql: where this staffer's booking emails go when no member is
   * this staffer (memberships.staffer_id, the one link since migration 0013).
   */
  email: string | null;
  booking_emails: Json<string[]>;
}

export interface StafferServicesTable {
  workspace_id: string;
  staffer_id: string;
  location_id: string;
  service_id: string;
}

export interface SchedulesTable {
  workspace_id: string;
  staffer_id: string;
  location_id: string;
  weekly: Json<WeeklyJson>;
  breaks: Json<WeeklyJson>;
  overrides: Json<OverrideJson[]>;
  updated_at: Timestamp;
}

export interface PaymentAccountsTable {
  workspace_id: string;
  id: Generated<string>;
  location_id: string;
  name: string;
  type: Generated<PaymentAccountType>;
  created_at: Timestamp;
  updated_at: Timestamp;
  archived_at: TimestampNullable;
}

export interface BookingStatusesTable {
  workspace_id: string;
  id: Generated<string>;
  name: string;
  type: StatusType;
  color: Generated<string>;
  is_default: Generated<boolean>;
  position: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  archived_at: TimestampNullable;
}

export interface CustomersTable {
  workspace_id: string;
  id: Generated<string>;
  int_id: IntId;
  phone: string;
  first_name: Generated<string>;
  last_name: Generated<string>;
  email: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** migrations/0025_customer_erasure.sql: set when the customer's personal data was erased. */
  erased_at: TimestampNullable;
}

export interface OccupanciesTable {
  workspace_id: string;
  id: Generated<string>;
  /** null: a rental's session (migrations/0042_rentals.sql), one booking holding its units. */
  staffer_id: string | null;
  location_id: string;
  service_id: string;
  service_start: Instant;
  /** tstzrange literal, e.g. '[2026-01-01 10:00:00+00,2026-01-01 11:00:00+00)' */
  span: string;
  capacity: number;
  seats_taken: number;
}

export interface ResourcesTable {
  workspace_id: string;
  id: Generated<string>;
  location_id: string;
  type: string;
  name: string;
  capacity: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  archived_at: TimestampNullable;
}

/** A unit held by a staffer occupancy (migrations/0035_resources.sql). */
export interface ResourceOccupanciesTable {
  workspace_id: string;
  id: Generated<string>;
  occupancy_id: string;
  resource_id: string;
  /** tstzrange literal, like occupancies.span */
  span: string;
  /** The span's bounds in epoch ms (the time-slot read's index). */
  start_ms: number;
  end_ms: number;
}

/** migrations/0041_resource_busy_blocks.sql: a unit's holds merged, in pieces of a day at most. */
export interface ResourceBusyBlocksTable {
  workspace_id: string;
  resource_id: string;
  start_ms: number;
  end_ms: number;
}

/**
 * migrations/0040_report_rollup.sql: the reports' sums of one local day at one location, by
 * measure and key (src/reports/report-rollup.repository.ts). `day` is read as text, YYYY-MM-DD.
 */
export interface ReportDaySumsTable {
  workspace_id: string;
  location_id: string;
  day: string;
  measure: string;
  key: string;
  v1: Generated<number>;
  v2: Generated<number>;
  v3: Generated<number>;
  f1: Generated<number>;
}

/** The days whose sums are in report_day_sums. */
export interface ReportDaysTable {
  workspace_id: string;
  location_id: string;
  day: string;
}

/** Days touched by a write since they were rolled up. */
export interface ReportChangesTable {
  workspace_id: string;
  id: Generated<string>;
  location_id: string;
  day: string;
}

export type CancelReason =
  | 'canceled'
  | 'didnt_come'
  | 'postponed'
  | 'wrong_order'
  | 'spam'
  | 'other'
  | 'abandoned'
  | 'rescheduled'
  | 'not_confirmed';

export interface BookingsTable {
  workspace_id: string;
  id: Generated<string>;
  int_id: IntId;
  order_id: Generated<string>;
  location_id: string;
  /** null: a rental, a service needing no staffer (migrations/0042_rentals.sql). */
  staffer_id: string | null;
  customer_id: string;
  status_id: string;
  occupancy_id: string | null;
  start_time: Instant;
  end_time: Instant;
  quantity: Generated<number>;
  cancel_reason: CancelReason | null;
  canceled_at: TimestampNullable;
  completed_at: TimestampNullable;
  booking_comment: Generated<string>;
  booking_callback: boolean | null;
  source: Generated<string>;
  /** The language the customer booked in (the booking page's); null = the workspace locale's. */
  language: string | null;
  event_sequence: Generated<number>;
  /** migrations/0020_text_messages.sql: the booking page's text consent; null = not asked. */
  text_consent: boolean | null;
  /** migrations/0032_reports.sql: the booking page link's `?ref=`; null elsewhere. */
  ref: string | null;
  /** migrations/0028_payments.sql: null = nothing due. */
  payment_state: BookingPaymentState | null;
  payment_hold_until: TimestampNullable;
  created_by_key_id: string | null;
  /** migrations/0038_booking_series.sql: the series this booking is an occurrence of. */
  series_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** migrations/0038_booking_series.sql: a recurring booking's rule (docs/series.md). */
export interface BookingSeriesTable {
  workspace_id: string;
  id: Generated<string>;
  location_id: string;
  customer_id: string;
  frequency: 'daily' | 'weekly' | 'monthly';
  interval_count: number;
  /** Comma-separated weekday names ('mon,wed'); '' = the first date's weekday (weekly). */
  weekdays: Generated<string>;
  first_date: string;
  wall_minute: number;
  until_date: string | null;
  occurrence_count: number | null;
  mode: 'all_or_nothing' | 'book_free';
  event_sequence: Generated<number>;
  created_by_key_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  canceled_at: TimestampNullable;
}

export interface BookingServicesTable {
  workspace_id: string;
  id: Generated<string>;
  booking_id: string;
  service_id: string;
  name: string;
  quantity: Generated<number>;
  price: number;
  original_price: number;
  discount: Generated<number>;
  duration_minutes: number;
  position: Generated<number>;
}

export interface PaymentsTable {
  workspace_id: string;
  id: Generated<string>;
  booking_id: string;
  payment_account_id: string;
  amount: number;
  /** migrations/0028_payments.sql */
  provider: Generated<PaymentProviderName | 'manual'>;
  reference: string | null;
  kind: Generated<PaymentKind>;
  status: Generated<PaymentStatus>;
  created_at: Timestamp;
}

export type BookingPaymentState = 'awaiting_payment' | 'paid' | 'card_on_file' | 'refunded' | 'failed';
export type PaymentProviderName = 'stripe';
export type PaymentKind = 'payment' | 'deposit' | 'prepayment' | 'late_cancel_fee' | 'no_show_fee' | 'refund';
export type PaymentStatus = 'pending' | 'succeeded' | 'failed';
export type PaymentOperationKind =
  | 'checkout'
  | 'late_cancel_fee'
  | 'no_show_fee'
  | 'refund'
  | 'expire_checkout';

/** migrations/0028_payments.sql: provider events already handled. */
export interface PaymentEventsTable {
  workspace_id: string;
  provider: string;
  event_id: string;
  type: string;
  booking_id: string | null;
  received_at: Timestamp;
}

/** migrations/0028_payments.sql: calls to the provider we owe. */
export interface PaymentOperationsTable {
  workspace_id: string;
  id: Generated<string>;
  partition: GeneratedAlways<number>;
  booking_id: string;
  kind: PaymentOperationKind;
  amount: number;
  provider: PaymentProviderName;
  provider_ref: string | null;
  provider_url: string | null;
  state: Generated<'pending' | 'sending' | 'done' | 'failed'>;
  next_attempt_at: Timestamp;
  attempt_count: Generated<number>;
  last_response: string | null;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PublicNotesTable {
  workspace_id: string;
  id: Generated<string>;
  booking_id: string;
  value: string;
  created_at: Timestamp;
}

export interface BookingHistoryTable {
  workspace_id: string;
  id: Generated<string>;
  booking_id: string;
  action: string;
  changes: Json<Record<string, unknown>>;
  actor_type: 'api_key' | 'user' | 'system' | 'cli';
  actor_id: string | null;
  created_at: Timestamp;
}

export interface OutboxEventsTable {
  workspace_id: string;
  id: Generated<string>;
  booking_id: string | null;
  type: string;
  sequence: number;
  payload: JsonRequired<Record<string, unknown>>;
  created_at: Timestamp;
  dispatched_at: TimestampNullable;
  /** The workspace's outbox partition (0010_tenant_keys.sql), computed by the database. */
  partition: GeneratedAlways<number>;
  /**
   * On the last event of a booking change: the change (booking_history.action), from which the
   * dispatcher plans its emails (0014_outbox_change.sql). Null on the other events.
   */
  change: string | null;
}

export interface IdempotencyKeysTable {
  workspace_id: string;
  key: string;
  method: string;
  path: string;
  request_hash: string;
  status_code: number | null;
  response_body: string | null;
  /** Migration 0016: where a form's answer (a redirect) sent the browser; null for the API's. */
  response_location: string | null;
  created_at: Timestamp;
}

export interface AvailabilityVersionsTable {
  workspace_id: string;
  version: number;
}

export interface WorkspaceLocksTable {
  workspace_id: string;
  name: string;
}

export interface WebhooksTable {
  workspace_id: string;
  id: Generated<string>;
  url: string;
  events: Json<string[]>;
  enabled: Generated<boolean>;
  description: Generated<string>;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: TimestampNullable;
  disabled_reason: 'gone' | 'failing' | null;
  failing_since: TimestampNullable;
  format: Generated<WebhookFormat>;
  /** Static headers sent with every delivery (name -> value). */
  headers: ColumnType<Record<string, string>, string | undefined, string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type WebhookFormat = 'standard' | 'legacy';

export type DeliveryState = 'pending' | 'sending' | 'succeeded' | 'failed';

export interface WebhookDeliveriesTable {
  workspace_id: string;
  id: Generated<string>;
  webhook_id: string;
  event_id: string | null;
  event_type: string;
  message_id: string;
  body: string;
  state: Generated<DeliveryState>;
  attempt_count: Generated<number>;
  next_attempt_at: TimestampNullable;
  locked_until: TimestampNullable;
  last_attempt_at: TimestampNullable;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  partition: GeneratedAlways<number>;
  /** The event's booking and its per-booking sequence: a booking's events go out in this order. */
  booking_id: string | null;
  sequence: number | null;
}

export interface WebhookDeliveryAttemptsTable {
  workspace_id: string;
  id: Generated<string>;
  delivery_id: string;
  attempt: number;
  started_at: Instant;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  /** The first bytes of the receiver's answer (http-sender.ts). */
  response_excerpt: ColumnType<string | null, string | null | undefined, string | null>;
}

export type Role = 'owner' | 'admin' | 'staff';

export interface UsersTable {
  id: Generated<string>;
  email: string;
  name: Generated<string>;
  password_hash: string;
  must_change_password: Generated<boolean>;
  /** The panel language the user picked (`de`, `ar`, ...); null = Accept-Language, else the workspace's. */
  language: Generated<string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MembershipsTable {
  workspace_id: string;
  user_id: string;
  role: Role;
  created_at: Timestamp;
  /**
   * The staffer this member is (migration 0012; the only user–staffer link since 0013): their own
   * calendar column and feed, and where that staffer's booking emails go.
   */
  staffer_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SessionsTable {
  id: Generated<string>;
  token_hash: string;
  user_id: string;
  shown_workspace_id: string | null;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: TimestampRequired;
}

export interface InvitesTable {
  workspace_id: string;
  id: Generated<string>;
  email: string;
  role: Role;
  token_hash: string;
  invited_by: string | null;
  created_at: Timestamp;
  expires_at: TimestampRequired;
  accepted_at: TimestampNullable;
}

export interface PasswordResetTokensTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  created_at: Timestamp;
  expires_at: TimestampRequired;
  used_at: TimestampNullable;
}

/** Global by design (test/scale/tenant-keys.test.ts): outbox partitions leased by delivery workers. */
export interface WorkerLeasesTable {
  partition: number;
  holder: string | null;
  lease_until: TimestampNullable;
}

export interface DeliveryWorkersTable {
  id: string;
  alive_until: Date;
}

/** Migration 0012: a secret iCalendar feed of a staffer or of a member (docs/calendar-feeds.md). */
export interface CalendarFeedsTable {
  workspace_id: string;
  id: Generated<string>;
  staffer_id: string | null;
  user_id: string | null;
  nonce: string;
  token_hash: string;
  created_at: Timestamp;
  regenerated_at: Timestamp;
}

export type MailState = 'pending' | 'sending' | 'sent' | 'logged' | 'failed' | 'dropped' | 'expired';
export type MailKind =
  | 'confirmed'
  | 'rescheduled'
  | 'canceled'
  | 'completed'
  | 'reminder'
  | 'staff_new'
  | 'staff_changed'
  | 'staff_canceled'
  | 'test'
  /** migrations/0033_payment_emails.sql: money taken, given back, or not taken. */
  | 'payment_received'
  | 'payment_refunded'
  | 'payment_failed'
  /** migrations/0036_calendar_readback.sql: a booking's event moved or deleted in the staffer's calendar. */
  | 'staff_calendar_edit'
  /** migrations/0039_waitlist.sql: a freed time offered to a waiting customer. */
  | 'waitlist_offer';

/** migrations/0011_notifications.sql: the mail outbox and log. */
export interface MailMessagesTable {
  workspace_id: string;
  id: Generated<string>;
  partition: GeneratedAlways<number>;
  booking_id: string | null;
  kind: MailKind;
  revision: number;
  message_key: string;
  recipient: string;
  snapshot: JsonRequired<Record<string, unknown>>;
  state: Generated<MailState>;
  due_at: Instant;
  starts_at: TimestampNullable;
  next_attempt_at: Instant;
  attempt_count: Generated<number>;
  subject: string | null;
  body_text: string | null;
  last_response: string | null;
  sent_at: TimestampNullable;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** migrations/0026_import_uploads.sql: a CSV file between its preview and its run (src/imports/). */
export interface ImportUploadsTable {
  workspace_id: string;
  id: Generated<string>;
  kind: 'customers' | 'services' | 'staffers' | 'bookings';
  file_name: Generated<string>;
  content: string;
  created_by: string | null;
  created_at: Timestamp;
  ran_at: TimestampNullable;
  result: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
}

/** migrations/0027_audit_entries.sql: who changed what (src/audit/). */
export interface AuditEntriesTable {
  workspace_id: string;
  id: Generated<string>;
  at: Timestamp;
  actor_type: 'user' | 'api_key' | 'cli' | 'system';
  actor_id: string | null;
  action: string;
  subject_id: string | null;
  details: Json<Record<string, unknown>>;
}

export type TextKind = 'confirmed' | 'rescheduled' | 'canceled' | 'reminder' | 'test' | 'waitlist_offer';
export type TextState =
  | 'pending'
  | 'sending'
  | 'sent'
  | 'delivered'
  | 'failed'
  | 'undelivered'
  | 'logged'
  | 'opted_out'
  | 'dropped'
  | 'expired';
export type TextProviderName = 'none' | 'twilio' | 'gateway';

/** migrations/0020_text_messages.sql: the text outbox and log. */
export interface TextMessagesTable {
  workspace_id: string;
  id: Generated<string>;
  partition: GeneratedAlways<number>;
  booking_id: string | null;
  kind: TextKind;
  revision: number;
  message_key: string;
  channel: 'sms' | 'whatsapp';
  recipient: string;
  provider: TextProviderName;
  snapshot: JsonRequired<Record<string, unknown>>;
  body: string | null;
  segments: number | null;
  encoding: 'gsm7' | 'ucs2' | null;
  state: Generated<TextState>;
  due_at: Instant;
  starts_at: TimestampNullable;
  next_attempt_at: Instant;
  attempt_count: Generated<number>;
  in_doubt: Generated<boolean>;
  provider_ref: string | null;
  price_micros: ColumnType<number | null, number | null | undefined, number | null>;
  price_unit: string | null;
  last_response: string | null;
  sent_at: TimestampNullable;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TextOptOutsTable {
  workspace_id: string;
  phone: string;
  opted_out: boolean;
  keyword: string;
  updated_at: Timestamp;
}

export interface TextInboundTable {
  workspace_id: string;
  provider: string;
  provider_message_id: string;
  phone: string;
  body: string;
  action: string;
  booking_id: string | null;
  received_at: Timestamp;
}

export type CalendarConnectionStatus = 'ok' | 'failing' | 'refused';

/** migrations/0030_calendar_sync.sql: a staffer's outside calendar (one per staffer). */
export interface CalendarConnectionsTable {
  workspace_id: string;
  staffer_id: string;
  provider: Generated<'caldav'>;
  server_url: string;
  username: string;
  password_sealed: string;
  read_calendars: Json<string[]>;
  write_calendar: string | null;
  all_day_blocks: Generated<boolean>;
  show_titles: Generated<boolean>;
  customer_name_in_events: Generated<boolean>;
  sync_state: Json<Record<string, { syncToken: string | null; ctag: string | null }>>;
  status: Generated<CalendarConnectionStatus>;
  last_error: string | null;
  failure_count: Generated<number>;
  last_sync_at: TimestampNullable;
  last_success_at: TimestampNullable;
  next_sync_at: Timestamp;
  expanded_until: TimestampNullable;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** migrations/0030_calendar_sync.sql: calendar objects as last read. */
export interface CalendarObjectsTable {
  workspace_id: string;
  staffer_id: string;
  href: string;
  calendar_url: string;
  etag: string | null;
  ics: string;
  updated_at: Timestamp;
}

/** migrations/0030_calendar_sync.sql: outside busy time per blocking instance. */
export interface CalendarBusySpansTable {
  workspace_id: string;
  id: Generated<string>;
  staffer_id: string;
  href: string;
  start_ms: number;
  end_ms: number;
  all_day: Generated<boolean>;
  title: Generated<string>;
}

/** migrations/0037_calendar_busy_blocks.sql: a staffer's busy spans merged, in pieces of a day at most. */
export interface CalendarBusyBlocksTable {
  workspace_id: string;
  staffer_id: string;
  start_ms: number;
  end_ms: number;
}

/** migrations/0034_calendar_writes.sql: booking revisions to send to the staffer's calendar. */
export interface CalendarWritesTable {
  workspace_id: string;
  booking_id: string;
  revision: number;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  last_error: string | null;
  done_at: TimestampNullable;
  created_at: Timestamp;
  /** migrations/0036: sent even when the calendar already shows this revision (ignore, erasure). */
  rewrite: Generated<boolean>;
}

/** migrations/0034_calendar_writes.sql: the event a booking has in a staffer's calendar. */
export interface CalendarBookingEventsTable {
  workspace_id: string;
  booking_id: string;
  staffer_id: string;
  href: string;
  etag: string | null;
  revision: number;
  updated_at: Timestamp;
  /** migrations/0036: an outside edit waiting for apply or ignore ('moved' | 'deleted'). */
  outside_change: 'moved' | 'deleted' | null;
  outside_start: TimestampNullable;
  outside_end: TimestampNullable;
  outside_seen_at: TimestampNullable;
}

/** A wanted time of a waitlist entry, in the location's wall time (migrations/0039_waitlist.sql). */
export interface WaitlistWindowJson {
  /** YYYY-MM-DD */
  date: string;
  /** HH:MM, inclusive */
  from: string;
  /** HH:MM, exclusive; a start before it matches */
  to: string;
}

export type WaitlistEntryState = 'waiting' | 'offered' | 'booked' | 'left';
export type WaitlistOfferState = 'open' | 'claimed' | 'expired' | 'withdrawn';

export interface WaitlistEntriesTable {
  workspace_id: string;
  id: Generated<string>;
  customer_id: string;
  location_id: string;
  service_id: string;
  staffer_id: string | null;
  windows: Json<WaitlistWindowJson[]>;
  any_time: Generated<boolean>;
  language: string | null;
  source: Generated<string>;
  state: Generated<WaitlistEntryState>;
  joined_at: Instant;
  updated_at: Timestamp;
  booking_id: string | null;
}

export interface WaitlistOffersTable {
  workspace_id: string;
  id: Generated<string>;
  entry_id: string;
  location_id: string;
  service_id: string;
  staffer_id: string | null;
  starts_at: Instant;
  held_until: Instant;
  state: Generated<WaitlistOfferState>;
  token_hash: string;
  made_by: Generated<'freed' | 'staff' | 'auto'>;
  booking_id: string | null;
  event_sequence: Generated<number>;
  created_at: Instant;
  updated_at: Timestamp;
}

export interface DB {
  workspaces: WorkspacesTable;
  api_keys: ApiKeysTable;
  locations: LocationsTable;
  service_categories: ServiceCategoriesTable;
  services: ServicesTable;
  service_locations: ServiceLocationsTable;
  staffers: StaffersTable;
  staffer_services: StafferServicesTable;
  schedules: SchedulesTable;
  payment_accounts: PaymentAccountsTable;
  booking_statuses: BookingStatusesTable;
  customers: CustomersTable;
  occupancies: OccupanciesTable;
  bookings: BookingsTable;
  booking_series: BookingSeriesTable;
  booking_services: BookingServicesTable;
  payments: PaymentsTable;
  payment_events: PaymentEventsTable;
  payment_operations: PaymentOperationsTable;
  public_notes: PublicNotesTable;
  booking_history: BookingHistoryTable;
  outbox_events: OutboxEventsTable;
  idempotency_keys: IdempotencyKeysTable;
  availability_versions: AvailabilityVersionsTable;
  workspace_locks: WorkspaceLocksTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
  worker_leases: WorkerLeasesTable;
  delivery_workers: DeliveryWorkersTable;
  users: UsersTable;
  memberships: MembershipsTable;
  sessions: SessionsTable;
  invites: InvitesTable;
  password_reset_tokens: PasswordResetTokensTable;
  calendar_feeds: CalendarFeedsTable;
  mail_messages: MailMessagesTable;
  import_uploads: ImportUploadsTable;
  audit_entries: AuditEntriesTable;
  text_messages: TextMessagesTable;
  text_opt_outs: TextOptOutsTable;
  text_inbound: TextInboundTable;
  calendar_connections: CalendarConnectionsTable;
  calendar_objects: CalendarObjectsTable;
  calendar_busy_spans: CalendarBusySpansTable;
  calendar_busy_blocks: CalendarBusyBlocksTable;
  calendar_writes: CalendarWritesTable;
  calendar_booking_events: CalendarBookingEventsTable;
  resources: ResourcesTable;
  resource_occupancies: ResourceOccupanciesTable;
  resource_busy_blocks: ResourceBusyBlocksTable;
  waitlist_entries: WaitlistEntriesTable;
  waitlist_offers: WaitlistOffersTable;
  report_day_sums: ReportDaySumsTable;
  report_days: ReportDaysTable;
  report_changes: ReportChangesTable;
}
