import { type Static, Type } from 'typebox';

export const PAYMENT_ACCOUNT_TYPES = ['cash', 'card', 'bank_transfer', 'online', 'other'] as const;

export const PaymentAccountParams = Type.Object({
  locationUuid: Type.String({ format: 'uuid' }),
  accountUuid: Type.String({ format: 'uuid' }),
});

export const PaymentAccountCreateBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  type: Type.Optional(Type.Enum([...PAYMENT_ACCOUNT_TYPES], { description: 'Default cash' })),
});
export type PaymentAccountCreateBody = Static<typeof PaymentAccountCreateBody>;

export const PaymentAccountUpdateBody = Type.Partial(PaymentAccountCreateBody);
export type PaymentAccountUpdateBody = Static<typeof PaymentAccountUpdateBody>;

/** A payment account, as answered: `uuid, name, type`. */
export const PaymentAccountJson = Type.Object({
  uuid: Type.String({ format: 'uuid' }),
  name: Type.String(),
  type: Type.Enum([...PAYMENT_ACCOUNT_TYPES]),
});
