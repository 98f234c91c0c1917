import test from 'ava';
import { eventIdOf } from '../../../src/webhooks/event-id.js';

const event = {
  reviewId: '6d0c41b2-8f3e-4a51-9c7d-2e5b8a9f1c30',
  event: 'review.amended' as const,
  occurredAt: '2026-11-23T08:00:00.000Z',
};

test("the workflow's id is the event's id", (t) => {
  t.is(
    eventIdOf({ ...event, eventId: '0b7e9d14-3c2a-4f86-a1d5-7e4c9b2f6a81' }),
    '0b7e9d14-3c2a-4f86-a1d5-7e4c9b2f6a81',
  );
});

test('a delivery scheduled before events had ids gets the same derived id on every attempt: a version-8 UUID', (t) => {
  const id = eventIdOf(event);
  t.is(eventIdOf({ ...event }), id);
  t.regex(id, /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});

test('another review, event or time is another event, with another id', (t) => {
  const ids = new Set([
    eventIdOf(event),
    eventIdOf({ ...event, reviewId: '0b7e9d14-3c2a-4f86-a1d5-7e4c9b2f6a81' }),
    eventIdOf({ ...event, event: 'review.completed' }),
    eventIdOf({ ...event, occurredAt: '2026-11-23T08:00:00.001Z' }),
  ]);
  t.is(ids.size, 4);
});
