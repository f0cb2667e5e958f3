import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type ArmCodeClass,
  armErrorCodes,
  type OperatorReason,
  operatorReasons,
  type ReasonGroup,
} from '../../../src/lib/explain/operator-classes.ts';
import { operatorGoModule } from '../../fixtures/operator-go-module.ts';

const module = operatorGoModule('test/lib/explain/operator-classes.test.ts');

const retrySpeeds: Record<string, OperatorReason['retry']> = {
  'retry.Fast': 'fast',
  'retry.Slow': 'slow',
  'retry.VerySlow': 'verySlow',
  'retry.None': 'none',
};

/** The groups as the Go file's comments head them. */
const groupOfComment: Record<string, ReasonGroup> = {
  'Auth reasons': 'auth',
  'Precondition reasons': 'precondition',
  'Post-ARM PUT reasons': 'postPut',
  'Other reasons': 'other',
};

/** Every `ReasonX = Reason{Name: "...", RetryClassification: retry.Y}` in the file, under the comment heading it. */
function reasonsInGo(text: string): OperatorReason[] {
  const found: OperatorReason[] = [];
  let group: ReasonGroup = 'other';
  for (const line of text.split('\n')) {
    const heading = /^\/\/ (.+)$/.exec(line.trim());
    if (heading && groupOfComment[heading[1] as string])
      group = groupOfComment[heading[1] as string] as ReasonGroup;
    if (/^\/\/ ReasonFailed is a catch-all/.test(line.trim())) group = 'catchAll';
    const reason = /Reason\w*\s*=\s*Reason\{Name: "(\w+)", RetryClassification: (retry\.\w+)\}/.exec(line);
    if (reason)
      found.push({
        name: reason[1] as string,
        retry: retrySpeeds[reason[2] as string] as OperatorReason['retry'],
        group,
      });
  }
  return found;
}

/** The codes of each `case` of classifyCloudError's switch, with the class its body sets. */
function armCodesInGo(text: string): Record<string, ArmCodeClass> {
  const body = text.slice(
    text.indexOf('switch code {'),
    text.indexOf('default:', text.indexOf('switch code {')),
  );
  const codes: Record<string, ArmCodeClass> = {};
  for (const arm of body.split(/\bcase\b/).slice(1)) {
    // The labels come before the body's first statement; the body says what the codes get.
    const split = arm.indexOf('result.Classification');
    const [labels, effect] = [arm.slice(0, split), arm.slice(split)];
    const klass: ArmCodeClass = /ErrorFatal/.test(effect)
      ? 'fatal'
      : /retry\.VerySlow/.test(effect)
        ? 'retryableVerySlow'
        : 'retryable';
    for (const code of labels.matchAll(/"(\w+)"/g)) codes[code[1] as string] = klass;
  }
  return codes;
}

describe.runIf(module.present)("the operator's classes, as ASO v2.20.0's Go code has them", () => {
  it('lists every condition reason of ready_condition_builder.go with its retry speed and group', () => {
    const text = readFileSync(
      join(module.path, 'pkg/genruntime/conditions/ready_condition_builder.go'),
      'utf8',
    );
    const fromGo = reasonsInGo(text);
    expect(fromGo.length).toBeGreaterThan(10);
    expect(operatorReasons).toEqual(fromGo);
  });

  it('lists every ARM error code of the classifier with the class it gets', () => {
    const text = readFileSync(
      join(module.path, 'internal/reconcilers/arm/errorclassification/error_classifier.go'),
      'utf8',
    );
    const fromGo = armCodesInGo(text);
    expect(Object.keys(fromGo).length).toBeGreaterThan(30);
    expect(fromGo.ResourceQuotaExceeded).toBe('retryable');
    expect(armErrorCodes).toEqual(fromGo);
  });
});
