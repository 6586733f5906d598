import { isFinal, type StatusRow } from './statuses.repository.js';

/** A booking status as the API answers it: `uuid, name, type, color, is_default, is_final`. */
export function presentStatus(status: StatusRow) {
  return {
    uuid: status.id,
    name: status.name,
    type: status.type,
    color: status.color,
    is_default: status.is_default,
    is_final: isFinal(status.type),
  };
}
