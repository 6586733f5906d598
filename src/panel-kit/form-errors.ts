import { type AppError, type FieldErrors, type FieldIssue, InvalidInput } from '../errors.js';
import type { PanelKey, PanelText } from './i18n.js';

const WORDS: Record<FieldIssue['kind'], PanelKey> = {
  required: 'kit.issueRequired',
  invalid: 'kit.issueInvalid',
  invalid_email: 'kit.issueEmail',
  invalid_phone: 'kit.issuePhone',
  invalid_url: 'kit.issueUrl',
  not_a_number: 'kit.issueNumber',
  not_a_choice: 'kit.issueChoice',
  too_long: 'kit.issueTooLong',
  too_short: 'kit.issueTooShort',
  too_small: 'kit.issueTooSmall',
  too_large: 'kit.issueTooLarge',
};

/**
 * A refused form's field errors in the reader's language: where the error knows what a field's
 * trouble is (the schema's typed findings, or a parsed booking's issues), the panel words it
 * from its catalogs; other messages (a business rule's) are shown as the service gave them.
 */
export function formErrorsOf(error: AppError, t: PanelText['t']): FieldErrors {
  const issues: Record<string, FieldIssue> = { ...error.fieldIssues };
  if (error instanceof InvalidInput) {
    for (const [field, issue] of Object.entries(error.issues))
      issues[field] ??= { kind: issue } as FieldIssue;
  }
  const worded: FieldErrors = {};
  for (const [field, messages] of Object.entries(error.errors ?? {})) {
    const issue = issues[field];
    worded[field] =
      issue === undefined
        ? messages
        : [t(WORDS[issue.kind], 'limit' in issue ? { limit: issue.limit } : undefined)];
  }
  return worded;
}
