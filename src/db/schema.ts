import type { ColumnType, Generated } from 'kysely';

/** Column types of migrations/*.sql, for Kysely. Keep in step with the SQL. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type TimestampNullable = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T> = ColumnType<T, string | undefined, string>;

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
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ApiKeysTable {
  workspace_id: string;
  id: Generated<string>;
  name: string;
  secret_hash: string;
  secret_hint: string;
  created_at: Timestamp;
  deleted_at: TimestampNullable;
}

export interface LocationsTable {
  workspace_id: string;
  id: Generated<string>;
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
  category_id: string | null;
  name: string;
  description: Generated<string>;
  price: Generated<number>;
  duration_minutes: number;
  capacity: Generated<number>;
  buffer_before_minutes: Generated<number>;
  buffer_after_minutes: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  archived_at: TimestampNullable;
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
  phone: string;
  first_name: Generated<string>;
  last_name: Generated<string>;
  email: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OccupanciesTable {
  workspace_id: string;
  id: Generated<string>;
  staffer_id: string;
  location_id: string;
  service_id: string;
  service_start: Timestamp;
  /** tstzrange literal, e.g. '[2026-01-01 10:00:00+00,2026-01-01 11:00:00+00)' */
  span: string;
  capacity: number;
  seats_taken: number;
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
  order_id: Generated<string>;
  location_id: string;
  staffer_id: string;
  customer_id: string;
  status_id: string;
  occupancy_id: string | null;
  start_time: Timestamp;
  end_time: Timestamp;
  quantity: Generated<number>;
  cancel_reason: CancelReason | null;
  canceled_at: TimestampNullable;
  completed_at: TimestampNullable;
  booking_comment: Generated<string>;
  booking_callback: boolean | null;
  source: Generated<string>;
  event_sequence: Generated<number>;
  created_by_key_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
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
  created_at: Timestamp;
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
  actor_type: 'api_key' | 'user' | 'system';
  actor_id: string | null;
  created_at: Timestamp;
}

export interface OutboxEventsTable {
  workspace_id: string;
  id: Generated<string>;
  booking_id: string | null;
  type: string;
  sequence: number;
  payload: Json<Record<string, unknown>>;
  created_at: Timestamp;
  dispatched_at: TimestampNullable;
}

export interface IdempotencyKeysTable {
  workspace_id: string;
  key: string;
  method: string;
  path: string;
  request_hash: string;
  status_code: number | null;
  response_body: ColumnType<unknown, string | null | undefined, string | null>;
  created_at: Timestamp;
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
  created_at: Timestamp;
  updated_at: Timestamp;
}

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
}

export interface WebhookDeliveryAttemptsTable {
  workspace_id: string;
  id: Generated<string>;
  delivery_id: string;
  attempt: number;
  started_at: Timestamp;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
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
  booking_services: BookingServicesTable;
  payments: PaymentsTable;
  public_notes: PublicNotesTable;
  booking_history: BookingHistoryTable;
  outbox_events: OutboxEventsTable;
  idempotency_keys: IdempotencyKeysTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
}
