import { beforeAll, describe, expect, it } from 'vitest';
import type { RuleKind } from '../../../src/lib/health-rules/kinds.ts';
import { readyStateOf, states } from '../../../src/lib/status/ready-state.ts';
import { loadSamples, type Sample } from '../../differential/samples.ts';
import {
  evaluateRules,
  evaluatorToolchainPresent,
  gitopsEvaluatorBinary,
} from '../../fixtures/gitops-evaluator.ts';
import { randomFrom } from '../../fixtures/seeded-random.ts';
import { sharedData } from '../../fixtures/shared-data.ts';
import { objectsInEveryState } from './objects.ts';
import { agreement, rulesOf } from './rules.ts';

// The operator's own sample manifests, each given the status of every state `status` knows: the rules must
// reach status's verdict on real objects of many kinds, not only on the four kind classes of agreement.test.ts.
const neededBy = "test/lib/health-rules/samples-agreement.test.ts (the operator's v2.20.0 samples)";
const samples = sharedData('aso-samples/v2.20.0', neededBy);
const toolchain = evaluatorToolchainPresent(neededBy);

/** Kinds drawn per run: all 283 take minutes in CI; a printed seed replays any draw. */
const kindsPerRun = Number(process.env.ASO_HEALTH_KINDS ?? 40);
const seed = process.env.ASO_HEALTH_SEED
  ? Number(process.env.ASO_HEALTH_SEED)
  : Math.floor(Math.random() * 0x7fffffff);

/** The sample with the state object's metadata fields and status laid over its own. */
function sampleInState(sample: Sample, state: Record<string, unknown>): Record<string, unknown> {
  const metadata = (sample.object.metadata ?? {}) as Record<string, unknown>;
  const stateMetadata = (state.metadata ?? {}) as Record<string, unknown>;
  const annotations = {
    ...((metadata.annotations ?? {}) as Record<string, unknown>),
    ...((stateMetadata.annotations ?? {}) as Record<string, unknown>),
  };
  const { status: _ignored, ...rest } = sample.object;
  const object: Record<string, unknown> = {
    ...rest,
    metadata: { ...metadata, ...stateMetadata, annotations },
  };
  if ('status' in state) object.status = state.status;
  return object;
}

describe.runIf(samples.present && toolchain)("the generated rules on the operator's samples", () => {
  beforeAll(async () => {
    await gitopsEvaluatorBinary();
  }, 600_000);

  it(`reach status's verdict on samples of ${kindsPerRun} kinds drawn by a printed seed, in every state`, async () => {
    console.log(`health-rules samples: seed ${seed} (replay with ASO_HEALTH_SEED=${seed})`);
    const byKind = new Map<string, Sample>();
    for (const sample of loadSamples(samples.path)) {
      const group = sample.object.apiVersion.split('/')[0] ?? '';
      const key = `${group}/${sample.object.kind}`;
      if (!byKind.has(key)) byKind.set(key, sample);
    }
    // Every kind of the release has a sample, so the draw is over all of them.
    expect(byKind.size).toBeGreaterThanOrEqual(283);
    const random = randomFrom(seed);
    const keys = [...byKind.keys()].sort();
    const drawn = new Set<string>();
    while (drawn.size < Math.min(kindsPerRun, keys.length))
      drawn.add(keys[Math.floor(random() * keys.length)] as string);
    const disagreements: string[] = [];
    for (const key of [...drawn].sort()) {
      const sample = byKind.get(key) as Sample;
      const [group, version] = sample.object.apiVersion.split('/') as [string, string];
      const kind: RuleKind = { group, version, kind: sample.object.kind };
      const objects = objectsInEveryState.map((named) => sampleInState(sample, named.object));
      expect(new Set(objects.map((object) => readyStateOf(object).state)).size).toBe(states.length);
      const [answer] = await evaluateRules(rulesOf([kind]), objects);
      expect(answer?.verdicts, key).toHaveLength(objects.length);
      answer?.verdicts.forEach((verdict, index) => {
        for (const problem of agreement(objects[index] as Record<string, unknown>, verdict))
          disagreements.push(`${sample.file} in state ${objectsInEveryState[index]?.name}: ${problem}`);
      });
    }
    expect(disagreements.slice(0, 10), `seed ${seed}`).toEqual([]);
  }, 300_000);
});
