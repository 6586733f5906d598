import { Type } from 'typebox';

const WallSeconds = Type.Integer({ description: 'Wall-clock seconds since local midnight (HH*3600+MM*60)' });

// The instants and their offsets, which tell apart wall clocks a DST day repeats.
const Instants = {
  start_time: Type.String({ description: 'UTC instant of the start' }),
  end_time: Type.String({ description: 'UTC instant of the end' }),
  start_offset: Type.String({ description: 'UTC offset in force at the start', examples: ['+02:00'] }),
  end_offset: Type.String({ description: 'UTC offset in force at the end', examples: ['+02:00'] }),
};

const FreeIntervalJson = Type.Object({
  start: Type.String({ examples: ['09:00'] }),
  start_formatted: WallSeconds,
  end: Type.String({ examples: ['13:00'] }),
  end_formatted: WallSeconds,
  ...Instants,
});

const SlotJson = Type.Object({
  start: Type.String({ examples: ['09:00'] }),
  start_formatted: WallSeconds,
  end: Type.String({ examples: ['10:00'] }),
  end_formatted: WallSeconds,
  quantity: Type.Integer({ description: 'Places still free' }),
  price: Type.Integer({ description: 'Minor units' }),
  price_formatted: Type.String(),
  ...Instants,
});

/** The public API's time-slot response: unwrapped, `today, timezone, currency, dates`. */
export const TimeSlotsJson = Type.Object({
  today: Type.String({ format: 'date' }),
  timezone: Type.String(),
  currency: Type.String(),
  dates: Type.Array(
    Type.Object({
      date: Type.String({ format: 'date' }),
      slots: Type.Array(SlotJson, { description: 'Suggested starts, spaced by the workspace slot step' }),
      intervals: Type.Array(FreeIntervalJson, {
        description:
          'Free spans in which the service fits: any whole minute in one, not only a listed slot, can be booked ' +
          'when a staffer (and the units the service needs) are free for its whole length',
      }),
    }),
  ),
});
