import { type AppError, type FieldErrors, type FieldIssue, InvalidInput, issuesOf } from '../errors.js';
import type { PanelKey, PanelText } from './i18n.js';

const WORDS: Record<Exclude<FieldIssue['kind'], 'rule'>, PanelKey> = {
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

/** One field's typed trouble in the reader's language: a schema finding, or a business rule's. */
export function wordIssue(issue: FieldIssue, t: PanelText['t']): string {
  // Every rule has its `rule.<name>` key: a rule without one is a type error here.
  if (issue.kind === 'rule') return t(`rule.${issue.rule}` satisfies PanelKey, issue.values);
  return t(WORDS[issue.kind], 'limit' in issue ? { limit: issue.limit } : undefined);
}

/**
 * Field errors in the reader's language: a field whose trouble is known, typed (`issues`, else
 * the ones `withIssues` keeps beside the map), is worded from the catalogs; any other keeps the
 * message the service gave.
 */
export function wordedFieldErrors(
  errors: FieldErrors,
  t: PanelText['t'],
  issues: Record<string, FieldIssue> = issuesOf(errors),
): FieldErrors {
  const worded: FieldErrors = {};
  for (const [field, messages] of Object.entries(errors)) {
    const issue = issues[field];
    worded[field] = issue === undefined ? messages : [wordIssue(issue, t)];
  }
  return worded;
}

/**
 * A refused form's field errors in the reader's language: the schema's typed findings, a parsed
 * booking's issues and the business rules' findings (`ruleIssue`) are worded from the catalogs.
 */
export function formErrorsOf(error: AppError, t: PanelText['t']): FieldErrors {
  const errors = error.errors ?? {};
  const issues: Record<string, FieldIssue> = { ...issuesOf(errors), ...error.fieldIssues };
  if (error instanceof InvalidInput) {
    for (const [field, issue] of Object.entries(error.issues))
      issues[field] ??= { kind: issue } as FieldIssue;
  }
  return wordedFieldErrors(errors, t, issues);
}
