import { describe, expect, it } from 'vitest';
import { type ConditionedObject, readyStateOf } from '../../../src/lib/status/ready-state.ts';

function withReady(
  condition: Record<string, unknown>,
  metadata: ConditionedObject['metadata'] = { generation: 1 },
) {
  return {
    metadata,
    status: {
      conditions: [
        { type: 'Other', status: 'False', severity: 'Error' },
        { type: 'Ready', ...condition },
      ],
    },
  };
}

describe('the state of an object from its Ready condition', () => {
  it('marks a Ready=True object as Ready and ready', () => {
    const state = readyStateOf(withReady({ status: 'True', reason: 'Succeeded', observedGeneration: 1 }));
    expect(state).toMatchObject({
      state: 'Ready',
      ready: true,
      stale: false,
      reason: 'Succeeded',
      severity: '',
    });
  });

  it('marks a Ready=False severity=Error object as Error', () => {
    const state = readyStateOf(
      withReady({ status: 'False', severity: 'Error', reason: 'AuthorizationFailed', message: 'no access' }),
    );
    expect(state).toMatchObject({
      state: 'Error',
      ready: false,
      reason: 'AuthorizationFailed',
      message: 'no access',
    });
  });

  it('marks a Ready=False severity=Warning object as Warning', () => {
    expect(
      readyStateOf(withReady({ status: 'False', severity: 'Warning', reason: 'WaitingForOwner' })).state,
    ).toBe('Warning');
  });

  it('marks Ready=False or Unknown with severity Info, or none, as Progressing', () => {
    expect(readyStateOf(withReady({ status: 'False', severity: 'Info', reason: 'Reconciling' })).state).toBe(
      'Progressing',
    );
    expect(readyStateOf(withReady({ status: 'Unknown', reason: 'Reconciling' })).state).toBe('Progressing');
    expect(readyStateOf(withReady({ status: 'False', reason: 'Reconciling' })).state).toBe('Progressing');
  });

  it('marks reason Deleting, or a deletion timestamp, as Deleting', () => {
    expect(readyStateOf(withReady({ status: 'False', severity: 'Info', reason: 'Deleting' })).state).toBe(
      'Deleting',
    );
    const deleted = { generation: 1, deletionTimestamp: '2024-01-01T00:00:00Z' };
    expect(readyStateOf(withReady({ status: 'True', reason: 'Succeeded' }, deleted)).state).toBe('Deleting');
    expect(readyStateOf({ metadata: deleted }).state).toBe('Deleting');
  });

  it('shows a failing deletion as the failure, not as Deleting', () => {
    const deleted = { generation: 1, deletionTimestamp: '2024-01-01T00:00:00Z' };
    expect(
      readyStateOf(withReady({ status: 'False', severity: 'Error', reason: 'ScopeLocked' }, deleted)).state,
    ).toBe('Error');
    expect(
      readyStateOf(withReady({ status: 'False', severity: 'Warning', reason: 'Conflict' }, deleted)).state,
    ).toBe('Warning');
  });

  it('marks an object without a Ready condition as Unknown', () => {
    expect(readyStateOf({ metadata: { generation: 1 } })).toMatchObject({
      state: 'Unknown',
      ready: false,
      reason: '',
      lastTransitionTime: null,
    });
    expect(readyStateOf({ metadata: {}, status: { conditions: [] } }).state).toBe('Unknown');
    expect(
      readyStateOf({ metadata: {}, status: { conditions: [{ type: 'Other', status: 'True' }] } }).state,
    ).toBe('Unknown');
  });

  it('marks a Ready condition that cannot be read as Unknown', () => {
    expect(readyStateOf({ metadata: {}, status: { conditions: 'Ready' } }).state).toBe('Unknown');
    expect(readyStateOf({ metadata: {}, status: { conditions: [null, 7, { type: 'Ready' }] } }).state).toBe(
      'Unknown',
    );
    expect(readyStateOf(withReady({ status: 'Maybe', reason: 'Odd' })).state).toBe('Unknown');
    expect(readyStateOf(withReady({ status: 'False', severity: 'Fatal', reason: 'Odd' })).state).toBe(
      'Unknown',
    );
    expect(readyStateOf({ metadata: {}, status: 'broken' }).state).toBe('Unknown');
  });

  it('marks a condition older than the spec as stale, and a stale Ready as not ready', () => {
    const state = readyStateOf(
      withReady({ status: 'True', reason: 'Succeeded', observedGeneration: 1 }, { generation: 2 }),
    );
    expect(state).toMatchObject({ state: 'Ready', stale: true, ready: false });
    expect(readyStateOf(withReady({ status: 'True', observedGeneration: 3 }, { generation: 3 })).stale).toBe(
      false,
    );
    expect(readyStateOf(withReady({ status: 'True' }, { generation: 3 })).stale).toBe(false);
    const deleting = { generation: 2, deletionTimestamp: '2024-01-01T00:00:00Z' };
    expect(readyStateOf(withReady({ status: 'True', observedGeneration: 1 }, deleting)).stale).toBe(false);
  });

  it('keeps the transition time as written', () => {
    expect(
      readyStateOf(withReady({ status: 'True', lastTransitionTime: '2024-05-01T10:00:00Z' }))
        .lastTransitionTime,
    ).toBe('2024-05-01T10:00:00Z');
  });
});
