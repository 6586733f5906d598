/**
 * Typed errors with stable codes. Domain code throws these; src/http/errors.ts maps them to HTTP.
 */
export type FieldErrors = Record<string, string[]>;

/**
 * What is wrong with one field, typed with its limit: the API sends the English message of
 * `errors`, the panel words this in its reader's language (panel-kit/form-errors.ts).
 */
export type FieldIssue =
  | {
      kind:
        | 'required'
        | 'invalid'
        | 'invalid_email'
        | 'invalid_phone'
        | 'invalid_url'
        | 'not_a_number'
        | 'not_a_choice';
    }
  | { kind: 'too_long' | 'too_short' | 'too_small' | 'too_large'; limit: number }
  | { kind: 'rule'; rule: RuleName; values?: RuleValues };

/**
 * The business rules whose refusal a surface words itself (the panel: key `rule.<name>` of its
 * catalogs, with `values` as the message's ICU arguments); the API sends the English message.
 */
export type RuleName =
  | 'schedule_not_a_list'
  | 'schedule_too_many_ranges'
  | 'schedule_range_not_an_object'
  | 'schedule_from_not_a_time'
  | 'schedule_to_not_a_time'
  | 'schedule_to_equals_from'
  | 'schedule_interval_overlap'
  | 'schedule_break_overlap'
  | 'schedule_break_outside'
  | 'schedule_not_a_week'
  | 'schedule_unknown_weekday'
  | 'schedule_overrides_not_a_list'
  | 'schedule_too_many_overrides'
  | 'schedule_override_not_an_object'
  | 'schedule_date_not_a_date'
  | 'schedule_date_repeated'
  | 'schedule_intervals_required'
  | 'location_to_after_from'
  | 'location_hours_overlap'
  | 'timezone_invalid'
  | 'status_color'
  | 'status_name_taken'
  | 'status_final_not_default'
  | 'status_default_required'
  | 'role_invalid'
  | 'email_taken'
  | 'already_member'
  | 'password_not_correct'
  | 'last_owner'
  | 'language_invalid'
  | 'url_control_characters'
  | 'url_invalid'
  | 'url_scheme'
  | 'url_port'
  | 'url_private'
  | 'url_unresolvable'
  | 'slug_taken'
  | 'slug_format'
  | 'service_not_offered'
  | 'staffer_not_offering'
  | 'named_resource_one_unit'
  | 'import_kind'
  | 'import_csv_missing'
  | 'import_csv_too_large'
  | 'calendar_refused'
  | 'calendar_unreachable'
  | 'calendar_not_found'
  | 'secret_key_missing'
  | 'waitlist_need_time'
  | 'waitlist_too_many'
  | 'time_not_a_time'
  | 'end_after_start'
  | 'rental_needs_resource'
  | 'rental_capacity_one'
  | 'rental_has_no_staffer'
  | 'rental_services_need_staffer'
  | 'waitlist_no_rentals';

/** A rule's values: the data its message names (a weekday, a count, service names). */
export type RuleValues = Record<string, string | number>;

/** A business rule's finding, typed: the panel words it from `rule.<rule>` with `values`. */
export const ruleIssue = (rule: RuleName, values?: RuleValues): FieldIssue =>
  values ? { kind: 'rule', rule, values } : { kind: 'rule', rule };

export const REQUIRED: FieldIssue = { kind: 'required' };
export const NOT_A_CHOICE: FieldIssue = { kind: 'not_a_choice' };

const issuesOfErrors = new WeakMap<FieldErrors, Record<string, FieldIssue>>();

/**
 * Field errors that also say, typed, what some fields' trouble is: kept beside the plain map,
 * which every caller passes on as it is (merged by throwIfInvalid, sent by the API), so the panel
 * can word them in its reader's language (panel-kit/form-errors.ts).
 */
export function withIssues(errors: FieldErrors, issues: Record<string, FieldIssue>): FieldErrors {
  if (Object.keys(issues).length > 0) issuesOfErrors.set(errors, issues);
  return errors;
}

export function issuesOf(errors: FieldErrors): Record<string, FieldIssue> {
  return issuesOfErrors.get(errors) ?? {};
}

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly errors?: FieldErrors,
    readonly headers?: Record<string, string>,
    /** For some of the fields of `errors`: what each one's trouble is (schema findings, rules). */
    readonly fieldIssues?: Record<string, FieldIssue>,
    /** The data the message names (a count, service names), for a surface that words the code. */
    readonly values?: RuleValues,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const invalidToken = () => new AppError(403, 'invalid_token', 'Bearer token is invalid');

export const notFound = (what = 'Resource') => new AppError(404, 'not_found', `${what} not found.`);

export const badRequest = (message: string, code = 'bad_request') => new AppError(400, code, message);

export const validationFailed = (errors: FieldErrors, fieldIssues?: Record<string, FieldIssue>) =>
  new AppError(422, 'validation_failed', 'The given data was invalid.', errors, undefined, fieldIssues);

/** What is wrong with one field of an input, typed: a surface words it without reading the message. */
export type InputIssue = 'required' | 'invalid' | 'invalid_phone' | 'invalid_email' | 'too_long';

/**
 * A 422 validation_failed of a parsed input: the API's field errors (its messages) and, for the
 * same fields, what each one's trouble is (`issues`), for surfaces that say it in their own words.
 */
export class InvalidInput extends AppError {
  constructor(
    errors: FieldErrors,
    readonly issues: Record<string, InputIssue>,
  ) {
    super(422, 'validation_failed', 'The given data was invalid.', errors);
  }
}

/** A parsed input's issue as a typed field issue (it carries no limit: too long reads as not valid). */
export const fieldIssueOf = (issue: InputIssue): FieldIssue => ({
  kind: issue === 'too_long' ? 'invalid' : issue,
});

/** One field, one message: the common case of a business-rule validation error. */
export const invalidField = (field: string, message: string, issue?: FieldIssue) =>
  validationFailed({ [field]: [message] }, issue ? { [field]: issue } : undefined);

/**
 * Why a time cannot be booked: `taken` (no staffer or seat free then: someone was faster, or
 * it was never free), or a rule of the workspace's the time breaks. A surface words it from the
 * reason, never from the message.
 */
export type SlotUnavailableReason = 'taken' | 'not_on_grid' | 'too_soon' | 'beyond_horizon';

const SLOT_UNAVAILABLE_MESSAGES: Record<SlotUnavailableReason, string> = {
  taken: 'The requested time is not available.',
  not_on_grid: 'The requested time is not a bookable start: it must fall on a whole minute.',
  too_soon: 'The requested time is too soon: bookings need more notice.',
  beyond_horizon: 'The requested time is beyond the booking horizon.',
};

/** A 409 slot_unavailable, with its reason typed. */
export class SlotUnavailable extends AppError {
  constructor(readonly reason: SlotUnavailableReason) {
    const message = SLOT_UNAVAILABLE_MESSAGES[reason];
    super(409, 'slot_unavailable', message, { reserved_on: [message] });
  }
}

export const slotUnavailable = (reason: SlotUnavailableReason = 'taken') => new SlotUnavailable(reason);

/**
 * A time refused only because the staffer's own calendar is busy then (docs/calendar-sync.md):
 * the API and the booking page answer it as any taken time; the panel may book anyway.
 */
export class SlotBlockedOutside extends SlotUnavailable {
  constructor() {
    super('taken');
  }
}

export const bookingFinal = () =>
  new AppError(409, 'booking_final', 'The booking is completed or canceled and cannot be changed.', {
    status: ['The booking is completed or canceled and cannot be changed.'],
  });

/**
 * A waitlist offer that can no longer be claimed: already claimed (by this person, or in the
 * "all at once" mode by another), expired, or withdrawn (docs/waitlist.md). `state` says which.
 */
export class OfferGone extends AppError {
  constructor(readonly state: 'claimed' | 'expired' | 'withdrawn') {
    super(410, 'offer_gone', `This offer is no longer open (${state}).`, undefined, undefined, undefined, {
      state,
    });
  }
}

/**
 * A claimed offer whose time someone else booked meanwhile (a direct booking during the hold:
 * decision 0039). The person stays on the waiting list.
 */
export const offerTimeTaken = () =>
  new AppError(409, 'offer_time_taken', 'This time was taken meanwhile; you stay on the waiting list.');

/** A per-workspace cap is reached: `field` names the capped collection, `limit` its size. */
export const limitReached = (field: string, message: string, limit: number) =>
  new AppError(422, 'limit_reached', message, { [field]: [message] }, undefined, undefined, {
    what: field,
    limit,
  });

export const conflict = (code: string, message: string, errors?: FieldErrors) =>
  new AppError(409, code, message, errors);

/** Collects field errors so a request reports every bad field at once, not only the first. */
export class FieldErrorBag {
  private readonly errors: FieldErrors = {};
  private readonly issues: Record<string, FieldIssue> = {};
  add(field: string, message: string, issue?: FieldIssue): void {
    const list = this.errors[field] ?? [];
    list.push(message);
    this.errors[field] = list;
    if (issue) this.issues[field] ??= issue;
  }
  get isEmpty(): boolean {
    return Object.keys(this.errors).length === 0;
  }
  toJSON(): FieldErrors {
    return withIssues({ ...this.errors }, { ...this.issues });
  }
  throwIfAny(): void {
    if (!this.isEmpty) throw validationFailed(this.errors, { ...this.issues });
  }
}

/**
 * Bad command line (unknown command, missing or unknown flag): the CLI exits with code 2, like
 * most CLIs. Here, not in src/cli/, because each feature parses its own commands' flags.
 */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
