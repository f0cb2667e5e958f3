import type { ManifestObject } from '../manifests/read.ts';
import { armIdProblem, armNameSegment, isSubscriptionId } from './arm-id-input.ts';
import type { ArmUriTemplate } from './arm-uri.ts';
import { isPlaceholder } from './arm-uri.ts';
import { OwnerCycle } from './errors.ts';
import { type CrdArmIndex, type KindArm, kindArmOf, nonArmReasonOf } from './kind-arm.ts';

/** What building ARM IDs needs: the objects to resolve owners among, kind shapes, and the subscription. */
export interface ArmIdContext {
  /** The given objects, then any owners read from the cluster; owners are looked up here by name. */
  objects: ManifestObject[];
  crds: CrdArmIndex;
  /** The subscription the operator would use for this namespace; undefined when none was found. */
  subscriptionOf: (namespace: string) => string | undefined;
  /** The namespace of an object that names none: -n, else the context's. */
  defaultNamespace: string;
  /** An ID already known for an object (an owner in the cluster carries ASO's `resource-id` annotation). */
  knownIdOf?: (object: ManifestObject) => string | undefined;
}

/** One object's ARM ID, or why there is none. `kindArm` is set whenever the kind's shape was found. */
export type ArmIdAnswer =
  | { armId: string; kindArm: KindArm; owner?: ManifestObject | undefined }
  | { armId?: undefined; kindArm?: KindArm | undefined; unknown: string };

interface OwnerRef {
  name?: string;
  armId?: string;
  kind?: string;
  group?: string;
}

/** The namespace an object lands in on apply. */
export function namespaceOf(object: ManifestObject, defaultNamespace: string): string {
  return object.metadata.namespace ?? defaultNamespace;
}

/** The Azure name: `spec.azureName`, else `metadata.name`, as ASO defaults it. */
export function azureNameOf(object: ManifestObject): string {
  const azureName = object.spec?.azureName;
  return typeof azureName === 'string' && azureName !== '' ? azureName : (object.metadata.name as string);
}

function ownerOf(object: ManifestObject): OwnerRef | undefined {
  const owner = object.spec?.owner;
  return typeof owner === 'object' && owner !== null ? (owner as OwnerRef) : undefined;
}

function groupOf(object: ManifestObject): string {
  return object.apiVersion.split('/')[0] ?? '';
}

/** True when a template is of the given provider and type path (ARM compares them case-insensitively). */
export function sameType(a: ArmUriTemplate, provider: string, typePath: string[]): boolean {
  return (
    a.provider.toLowerCase() === provider.toLowerCase() &&
    a.typePath.length === typePath.length &&
    a.typePath.every((t, i) => t.toLowerCase() === typePath[i]?.toLowerCase())
  );
}

/**
 * Builds the ARM ID of every object from its kind's `ARM URI` template: the part after the parent's
 * placeholder, filled with the Azure name, is appended to the owner's ID (the subscription for resource
 * groups and subscription resources, the owner's own ID for extension resources like RoleAssignment, or
 * an owner's `armId`). Owners are found among the objects by namespace and name (and kind, or the parent
 * type the template implies). It exists because the ID is what ASO PUTs to, so it decides adoption.
 */
export function resolveArmIds(
  targets: ManifestObject[],
  context: ArmIdContext,
): Map<ManifestObject, ArmIdAnswer> {
  const answers = new Map<ManifestObject, ArmIdAnswer>();
  const inProgress: ManifestObject[] = [];

  const label = (o: ManifestObject) =>
    `${o.kind}/${namespaceOf(o, context.defaultNamespace)}/${o.metadata.name}`;

  const findOwner = (
    child: ManifestObject,
    ref: OwnerRef,
    parent: KindArm['template'] | undefined,
  ): ManifestObject | undefined => {
    const namespace = namespaceOf(child, context.defaultNamespace);
    const candidates = context.objects.filter(
      (o) =>
        o !== child && o.metadata.name === ref.name && namespaceOf(o, context.defaultNamespace) === namespace,
    );
    if (ref.kind) {
      return candidates.find((o) => o.kind === ref.kind && (!ref.group || groupOf(o) === ref.group));
    }
    if (parent) {
      const typed = candidates.find((o) => {
        const shape = kindArmOf(o.apiVersion, o.kind, context.crds);
        return shape !== undefined && sameType(shape.template, parent.provider, parent.typePath);
      });
      // A same-named object of another type is not the owner (ASO's owner reference is typed).
      return (
        typed ?? candidates.find((o) => kindArmOf(o.apiVersion, o.kind, context.crds)?.source === 'inferred')
      );
    }
    return candidates.length === 1 ? candidates[0] : undefined;
  };

  const resolve = (object: ManifestObject): ArmIdAnswer => {
    const done = answers.get(object);
    if (done) return done;
    if (inProgress.includes(object)) {
      throw new OwnerCycle([...inProgress.slice(inProgress.indexOf(object)), object].map(label));
    }
    inProgress.push(object);
    try {
      const answer = build(object);
      answers.set(object, answer);
      return answer;
    } finally {
      inProgress.pop();
    }
  };

  const build = (object: ManifestObject): ArmIdAnswer => {
    const kindArm = kindArmOf(object.apiVersion, object.kind, context.crds);
    if (!kindArm) {
      return {
        unknown:
          nonArmReasonOf(object.apiVersion, object.kind, context.crds) ??
          `no ARM shape known for ${object.kind} (${object.apiVersion})`,
      };
    }
    const knownId = context.knownIdOf?.(object);
    if (knownId) {
      const problem = armIdProblem(knownId);
      if (problem) return { kindArm, unknown: `its recorded resource ID ${problem}` };
      return { armId: knownId, kindArm };
    }
    const { segments, scope } = kindArm.template;
    // The object's own part of its ID: its last `type/name` pair, plus `providers/Provider` when the type
    // is the top of its provider's path. Everything before is its parent's ID (a fixed-name parent such
    // as `blobServices/default` included).
    const providersAt = segments.map((s) => s.toLowerCase()).lastIndexOf('providers');
    const suffixStart =
      kindArm.template.typePath.length === 1 && providersAt >= 0 ? providersAt : segments.length - 2;
    const fromConfig = object.spec?.azureNameFromConfig;
    if (fromConfig !== undefined && !object.spec?.azureName)
      return {
        kindArm,
        unknown:
          'its Azure name is read from a config map at reconcile time (spec.azureNameFromConfig), which kubectl-aso does not read',
      };
    const name = armNameSegment(azureNameOf(object));
    if (name === undefined)
      return {
        kindArm,
        unknown: 'its azureName (or metadata.name) cannot be an ARM name: ".", ".." or empty',
      };
    const suffix = segments.slice(suffixStart).map((s) => (isPlaceholder(s) ? name : s));
    const boundary = suffixStart > 0 ? suffixStart - 1 : undefined;
    const namespace = namespaceOf(object, context.defaultNamespace);
    let ownerId: string;
    let owner: ManifestObject | undefined;
    const boundaryName = boundary === undefined ? undefined : segments[boundary];
    const ref = ownerOf(object);
    if (boundaryName === undefined) {
      ownerId = '';
    } else if (boundaryName === '{subscriptionId}' && scope !== 'extension') {
      const subscription = context.subscriptionOf(namespace);
      if (!subscription)
        return { kindArm, unknown: 'no subscription: give --subscription or a credential secret' };
      if (!isSubscriptionId(subscription)) return { kindArm, unknown: 'the subscription ID is not a GUID' };
      ownerId = `/subscriptions/${subscription}`;
    } else if (ref?.armId) {
      const problem = armIdProblem(ref.armId);
      if (problem) return { kindArm, unknown: `owner armId ${problem}` };
      ownerId = ref.armId.replace(/\/+$/, '');
    } else if (ref?.name) {
      const parent =
        scope === 'extension'
          ? undefined
          : kindArm.template.typePath.length > 1
            ? { ...kindArm.template, typePath: kindArm.template.typePath.slice(0, -1) }
            : { ...kindArm.template, provider: 'Microsoft.Resources', typePath: ['resourceGroups'] };
      owner = findOwner(object, ref, parent);
      if (!owner) {
        const what = ref.kind ? `${ref.kind}/${ref.name}` : ref.name;
        return {
          kindArm,
          unknown: `owner ${what} is neither in the given files nor in the cluster (namespace ${namespace})`,
        };
      }
      const ownerAnswer = resolve(owner);
      if (ownerAnswer.armId === undefined) {
        return { kindArm, unknown: `owner ${owner.kind}/${owner.metadata.name}: ${ownerAnswer.unknown}` };
      }
      ownerId = ownerAnswer.armId;
    } else {
      return { kindArm, unknown: 'spec.owner is not set' };
    }
    return { armId: `${ownerId}/${suffix.join('/')}`, kindArm, owner };
  };

  for (const target of targets) resolve(target);
  return answers;
}
