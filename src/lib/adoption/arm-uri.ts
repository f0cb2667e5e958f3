/**
 * What a kind is in ARM, read from the `ARM URI` template ASO's generator writes into every CRD version's
 * description. It exists because the template carries ARM's own casing of the provider and type names and
 * the resource's scope, for every kind ASO has, including the ones this project does not generate.
 */
export interface ArmUriTemplate {
  /** The template as written, e.g. `/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Foo/bars/{barName}`. */
  template: string;
  /** `Microsoft.DBforPostgreSQL`; `Microsoft.Resources` for resource groups. */
  provider: string;
  /** Type names from the provider down, e.g. `['flexibleServers', 'databases']`. */
  typePath: string[];
  /** Where the top of the type path lives. */
  scope: 'tenant' | 'subscription' | 'resourceGroup' | 'extension';
  /** Path segments; a placeholder is `{name}`. */
  segments: string[];
}

const placeholder = /^\{[^}]+\}$/;

/** True for a `{name}` segment of a template. */
export function isPlaceholder(segment: string): boolean {
  return placeholder.test(segment);
}

/** Parses an `ARM URI` template; undefined when it is not one (so a caller can fall back to another source). */
export function parseArmUri(template: string): ArmUriTemplate | undefined {
  const trimmed = template.trim();
  if (!trimmed.startsWith('/')) return undefined;
  const segments = trimmed.split('/').filter((s) => s !== '');
  if (segments.length < 2) return undefined;
  const lower = segments.map((s) => s.toLowerCase());
  const providersAt = lower.lastIndexOf('providers');
  if (providersAt < 0) {
    // Only resource groups have no provider segment: /subscriptions/{id}/resourcegroups/{name}.
    if (lower[0] === 'subscriptions' && lower[2] === 'resourcegroups' && segments.length === 4) {
      return {
        template: trimmed,
        provider: 'Microsoft.Resources',
        typePath: ['resourceGroups'],
        scope: 'subscription',
        // The CRD spells `resourcegroups`; the operator records (and ARM answers) `resourceGroups`, and an
        // ID printed here should read as the one the user will find on the object.
        segments: ['subscriptions', segments[1] as string, 'resourceGroups', segments[3] as string],
      };
    }
    return undefined;
  }
  const provider = segments[providersAt + 1];
  if (provider === undefined || isPlaceholder(provider)) return undefined;
  const typePath: string[] = [];
  for (let i = providersAt + 2; i < segments.length; i += 2) typePath.push(segments[i] as string);
  if (typePath.length === 0 || typePath.some(isPlaceholder)) return undefined;
  const before = lower.slice(0, providersAt);
  let scope: ArmUriTemplate['scope'];
  if (before.length === 0) scope = 'tenant';
  else if (before.length === 2 && before[0] === 'subscriptions') scope = 'subscription';
  else if (before.length === 4 && before[0] === 'subscriptions' && before[2] === 'resourcegroups')
    scope = 'resourceGroup';
  // Anything else before the last `providers` (`{scope}`, or a parent resource's own ID) is the ID of the
  // resource this one extends.
  else scope = 'extension';
  return { template: trimmed, provider, typePath, scope, segments };
}

/** The `ARM URI` template in a CRD version's description, if it has one. */
export function armUriInDescription(description: string | undefined): string | undefined {
  const match = description?.match(/ARM URI:\s*(\S+)/);
  return match?.[1];
}

/**
 * A regular expression an ARM ID built from this template must match (placeholders are one segment,
 * `{scope}`/`{resourceUri}` at the start any ID); used by tests and as a guard before a GET.
 */
export function armIdPattern(template: ArmUriTemplate): RegExp {
  const parts = template.segments.map((segment, i) => {
    if (i === 0 && segment.match(/^\{(scope|resourceUri)\}$/)) return '(?:/[^/]+)+';
    if (isPlaceholder(segment)) return '/[^/]+';
    return `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
  });
  return new RegExp(`^${parts.join('')}$`, 'i');
}
