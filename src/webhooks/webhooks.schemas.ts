import { Type } from 'typebox';
import { PaginationQuery } from '../http/pagination.js';

export const WebhookParams = Type.Object({ webhookUuid: Type.String({ format: 'uuid' }) });
export const DeliveryParams = Type.Object({
  webhookUuid: Type.String({ format: 'uuid' }),
  deliveryUuid: Type.String({ format: 'uuid' }),
});

// Event names are checked by the service, which reports unknown ones by position (events.1).
const Events = Type.Array(Type.String({ maxLength: 100 }), {
  maxItems: 50,
  description: 'Event names (booking-created, booking-updated, ...), or ["*"] for all.',
});

export const CreateWebhookBody = Type.Object({
  url: Type.String({ maxLength: 2048, description: 'http(s) URL on a public address.' }),
  events: Type.Optional(Events),
  enabled: Type.Optional(Type.Boolean()),
  description: Type.Optional(Type.String({ maxLength: 500 })),
});

export const UpdateWebhookBody = Type.Object({
  url: Type.Optional(Type.String({ maxLength: 2048 })),
  events: Type.Optional(Events),
  enabled: Type.Optional(Type.Boolean()),
  description: Type.Optional(Type.String({ maxLength: 500 })),
});

export const DeliveriesQuery = Type.Object({
  ...PaginationQuery.properties,
  state: Type.Optional(Type.Enum(['pending', 'sending', 'succeeded', 'failed'])),
});
