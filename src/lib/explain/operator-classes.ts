/**
 * How ASO v2.20.0 classes what goes wrong, as its Go code says: the Ready condition's reasons
 * (`pkg/genruntime/conditions/ready_condition_builder.go`, with the retry speed each carries) and the ARM
 * error codes its classifier knows (`internal/reconcilers/arm/errorclassification/error_classifier.go`).
 * `test/lib/explain/operator-classes.test.ts` reads those files and keeps these tables equal to them, so
 * a new operator release that adds or moves a reason fails a test instead of being explained wrongly.
 */

/** How soon the operator tries again (`retry.Classification`): `none` never, until the object changes. */
export type RetrySpeed = 'fast' | 'slow' | 'verySlow' | 'none';

/** The operator's own condition reasons, by group as the Go file groups them. */
export type ReasonGroup = 'auth' | 'precondition' | 'postPut' | 'other' | 'catchAll';

/** One condition reason the operator sets, with its retry speed and group. */
export interface OperatorReason {
  name: string;
  retry: RetrySpeed;
  group: ReasonGroup;
}

/** ASO v2.20.0's condition reasons (`Reason{Name, RetryClassification}` in ready_condition_builder.go). */
export const operatorReasons: readonly OperatorReason[] = [
  { name: 'SubscriptionMismatch', retry: 'fast', group: 'auth' },
  { name: 'SecretNotFound', retry: 'fast', group: 'precondition' },
  { name: 'ConfigMapNotFound', retry: 'fast', group: 'precondition' },
  { name: 'ReferenceNotFound', retry: 'fast', group: 'precondition' },
  { name: 'WaitingForOwner', retry: 'fast', group: 'precondition' },
  { name: 'AzureResourceNotFound', retry: 'slow', group: 'postPut' },
  { name: 'FailedWritingAdditionalKubernetesObjects', retry: 'slow', group: 'postPut' },
  { name: 'Reconciling', retry: 'fast', group: 'other' },
  { name: 'Deleting', retry: 'fast', group: 'other' },
  { name: 'ReconciliationFailedPermanently', retry: 'none', group: 'other' },
  { name: 'ReconciliationBlocked', retry: 'slow', group: 'other' },
  { name: 'ReconciliationPostponed', retry: 'slow', group: 'other' },
  { name: 'PostReconciliationFailure', retry: 'slow', group: 'other' },
  { name: 'DeletionNotSupportedInAzure', retry: 'verySlow', group: 'other' },
  { name: 'Failed', retry: 'slow', group: 'catchAll' },
];

/** How the operator's classifier treats an ARM error code: retried, retried very slowly, or fatal. */
export type ArmCodeClass = 'retryable' | 'retryableVerySlow' | 'fatal';

/** The ARM error codes ASO v2.20.0's classifier names, each with its class (the `switch` in error_classifier.go). */
export const armErrorCodes: Readonly<Record<string, ArmCodeClass>> = {
  AnotherOperationInProgress: 'retryable',
  AuthorizationFailed: 'retryable',
  AllocationFailed: 'retryable',
  Conflict: 'retryable',
  FailedIdentityOperation: 'retryable',
  InvalidResourceReference: 'retryable',
  InvalidSubscriptionRegistrationState: 'retryable',
  LinkedAuthorizationFailed: 'retryable',
  MissingRegistrationForLocation: 'retryable',
  MissingSubscriptionRegistration: 'retryable',
  NoRegisteredProviderFound: 'retryable',
  NotFound: 'retryable',
  ParentResourceNotFound: 'retryable',
  PrincipalNotFound: 'retryable',
  ResourceGroupNotFound: 'retryable',
  ResourceNotFound: 'retryable',
  ResourceQuotaExceeded: 'retryable',
  RequestDisallowedByPolicy: 'retryable',
  SubscriptionNotRegistered: 'retryable',
  BadRequestFormat: 'retryableVerySlow',
  BadRequest: 'retryableVerySlow',
  InvalidResourceGroupLocation: 'retryableVerySlow',
  InvalidParameter: 'retryableVerySlow',
  InvalidParameterValue: 'retryableVerySlow',
  MethodNotAllowed: 'retryableVerySlow',
  ReservedResourceName: 'retryableVerySlow',
  RegionIsOfferRestricted: 'retryableVerySlow',
  ScopeLocked: 'retryableVerySlow',
  SkuNotAvailable: 'retryableVerySlow',
  SubscriptionNotFound: 'retryableVerySlow',
  PublicIpForGatewayIsRequired: 'fatal',
  InvalidResourceType: 'fatal',
  InvalidRequestContent: 'fatal',
  InvalidTemplate: 'fatal',
  InvalidValuesForRequestParameters: 'fatal',
  InvalidGatewaySkuProvidedForGatewayVpnType: 'fatal',
  InvalidGatewaySize: 'fatal',
  K8sVersionNotSupported: 'fatal',
  LocationRequired: 'fatal',
  MissingRequiredParameter: 'fatal',
  PasswordTooLong: 'fatal',
  PrivateIPAddressInReservedRange: 'fatal',
  PrivateIPAddressNotInSubnet: 'fatal',
  PropertyChangeNotAllowed: 'fatal',
};

/** The reasons that mean "waiting for another object": the cause is elsewhere, down the graph. */
export const waitingReasons: ReadonlySet<string> = new Set(
  operatorReasons.filter((reason) => reason.group === 'precondition').map((reason) => reason.name),
);
