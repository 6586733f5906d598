import { describe, expect, it } from 'vitest';
import { classifyInbound } from './keywords.rules.js';

describe('inbound keywords', () => {
  it.each([
    ['STOP', 'stop'],
    ['stop', 'stop'],
    [' Stop. ', 'stop'],
    ['STOPALL', 'stop'],
    ['unsubscribe', 'stop'],
    ['CANCEL', 'stop'], // the carriers' opt-out word, never a booking cancel
    ['end', 'stop'],
    ['QUIT', 'stop'],
    ['ARRET', 'stop'],
    ['arrêt', 'stop'],
    ['HALT', 'stop'],
    ['Stopp', 'stop'],
    ['СТОП', 'stop'],
    ['START', 'start'],
    ['unstop', 'start'],
    ['C', 'confirm'],
    ['c', 'confirm'],
    ['YES', 'confirm'],
    ['Yes!', 'confirm'],
    ['ja', 'confirm'],
    ['Oui', 'confirm'],
    ['نعم', 'confirm'],
    ['CANCEL BOOKING', 'cancel'],
    ['storno', 'cancel'],
    ['Annuler', 'cancel'],
    ['Hello, can I come later?', 'other'],
    ['', 'other'],
  ])('%j is %s', (body, action) => {
    expect(classifyInbound(body)).toBe(action);
  });
});
