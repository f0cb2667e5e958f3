/** A resource type as the REST API addresses it. The core group is the empty string. */
export interface ResourceType {
  group: string;
  version: string;
  plural: string;
}

/** The REST path of a collection or one object: `/apis/g/v[/namespaces/ns]/plural[/name][/sub]`. */
export function resourcePath(
  type: ResourceType,
  namespace?: string,
  name?: string,
  subresource?: string,
): string {
  const root = type.group === '' ? `/api/${type.version}` : `/apis/${type.group}/${type.version}`;
  const scoped = namespace ? `${root}/namespaces/${encodeURIComponent(namespace)}` : root;
  const object = name ? `/${encodeURIComponent(name)}` : '';
  return `${scoped}/${type.plural}${object}${subresource ? `/${subresource}` : ''}`;
}

/** `plural.group` as kubectl prints a resource type; the core group prints the plural alone. */
export function resourceName(type: ResourceType): string {
  return type.group === '' ? type.plural : `${type.plural}.${type.group}`;
}
