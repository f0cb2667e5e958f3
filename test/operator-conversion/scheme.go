package main

// The API packages of the groups kubectl-aso generates, every version the operator serves (API and storage),
// registered as the operator's createScheme in v2/internal/controllers/controller_resources_gen.go does.
// Other groups are left out: with all 306 of the operator's API packages, type-checking alone took 23 minutes
// and the build had not finished 15 minutes later on the shared 2-core machine (the first six: about 6 CPU-minutes
// cold). Adding a group is two lines per version here.

import (
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"

	authorization_v1api20200801preview "github.com/Azure/azure-service-operator/v2/api/authorization/v1api20200801preview"
	authorization_v1api20200801previews "github.com/Azure/azure-service-operator/v2/api/authorization/v1api20200801preview/storage"
	authorization_v1api20220401 "github.com/Azure/azure-service-operator/v2/api/authorization/v1api20220401"
	authorization_v1api20220401s "github.com/Azure/azure-service-operator/v2/api/authorization/v1api20220401/storage"
	dbforpostgresql_v1api20210601 "github.com/Azure/azure-service-operator/v2/api/dbforpostgresql/v1api20210601"
	dbforpostgresql_v1api20210601s "github.com/Azure/azure-service-operator/v2/api/dbforpostgresql/v1api20210601/storage"
	dbforpostgresql_v1api20220120preview "github.com/Azure/azure-service-operator/v2/api/dbforpostgresql/v1api20220120preview"
	dbforpostgresql_v1api20220120previews "github.com/Azure/azure-service-operator/v2/api/dbforpostgresql/v1api20220120preview/storage"
	dbforpostgresql_v1api20221201 "github.com/Azure/azure-service-operator/v2/api/dbforpostgresql/v1api20221201"
	dbforpostgresql_v1api20221201s "github.com/Azure/azure-service-operator/v2/api/dbforpostgresql/v1api20221201/storage"
	dbforpostgresql_v1api20230601preview "github.com/Azure/azure-service-operator/v2/api/dbforpostgresql/v1api20230601preview"
	dbforpostgresql_v1api20230601previews "github.com/Azure/azure-service-operator/v2/api/dbforpostgresql/v1api20230601preview/storage"
	dbforpostgresql_v1api20240801 "github.com/Azure/azure-service-operator/v2/api/dbforpostgresql/v1api20240801"
	dbforpostgresql_v1api20240801s "github.com/Azure/azure-service-operator/v2/api/dbforpostgresql/v1api20240801/storage"
	dbforpostgresql_v20250801 "github.com/Azure/azure-service-operator/v2/api/dbforpostgresql/v20250801"
	dbforpostgresql_v20250801s "github.com/Azure/azure-service-operator/v2/api/dbforpostgresql/v20250801/storage"
	kusto_v1api20230815 "github.com/Azure/azure-service-operator/v2/api/kusto/v1api20230815"
	kusto_v1api20230815s "github.com/Azure/azure-service-operator/v2/api/kusto/v1api20230815/storage"
	kusto_v1api20240413 "github.com/Azure/azure-service-operator/v2/api/kusto/v1api20240413"
	kusto_v1api20240413s "github.com/Azure/azure-service-operator/v2/api/kusto/v1api20240413/storage"
	managedidentity_v1api20181130 "github.com/Azure/azure-service-operator/v2/api/managedidentity/v1api20181130"
	managedidentity_v1api20181130s "github.com/Azure/azure-service-operator/v2/api/managedidentity/v1api20181130/storage"
	managedidentity_v1api20220131preview "github.com/Azure/azure-service-operator/v2/api/managedidentity/v1api20220131preview"
	managedidentity_v1api20220131previews "github.com/Azure/azure-service-operator/v2/api/managedidentity/v1api20220131preview/storage"
	managedidentity_v1api20230131 "github.com/Azure/azure-service-operator/v2/api/managedidentity/v1api20230131"
	managedidentity_v1api20230131s "github.com/Azure/azure-service-operator/v2/api/managedidentity/v1api20230131/storage"
	resources_v1api20200601 "github.com/Azure/azure-service-operator/v2/api/resources/v1api20200601"
	resources_v1api20200601s "github.com/Azure/azure-service-operator/v2/api/resources/v1api20200601/storage"
	sql_v1api20211101 "github.com/Azure/azure-service-operator/v2/api/sql/v1api20211101"
	sql_v1api20211101s "github.com/Azure/azure-service-operator/v2/api/sql/v1api20211101/storage"
	storage_v1api20210401 "github.com/Azure/azure-service-operator/v2/api/storage/v1api20210401"
	storage_v1api20210401s "github.com/Azure/azure-service-operator/v2/api/storage/v1api20210401/storage"
	storage_v1api20220901 "github.com/Azure/azure-service-operator/v2/api/storage/v1api20220901"
	storage_v1api20220901s "github.com/Azure/azure-service-operator/v2/api/storage/v1api20220901/storage"
	storage_v1api20230101 "github.com/Azure/azure-service-operator/v2/api/storage/v1api20230101"
	storage_v1api20230101s "github.com/Azure/azure-service-operator/v2/api/storage/v1api20230101/storage"
	storage_v20210401 "github.com/Azure/azure-service-operator/v2/api/storage/v20210401"
	storage_v20210401s "github.com/Azure/azure-service-operator/v2/api/storage/v20210401/storage"
	storage_v20220901 "github.com/Azure/azure-service-operator/v2/api/storage/v20220901"
	storage_v20220901s "github.com/Azure/azure-service-operator/v2/api/storage/v20220901/storage"
	storage_v20230101 "github.com/Azure/azure-service-operator/v2/api/storage/v20230101"
	storage_v20230101s "github.com/Azure/azure-service-operator/v2/api/storage/v20230101/storage"
	storage_v20250601 "github.com/Azure/azure-service-operator/v2/api/storage/v20250601"
	storage_v20250601s "github.com/Azure/azure-service-operator/v2/api/storage/v20250601/storage"
)

// operatorScheme holds what the operator's manager scheme holds for these groups, so the conversion webhook handler
// finds the same hubs and spokes.
func operatorScheme() (*runtime.Scheme, error) {
	scheme := runtime.NewScheme()
	builders := []func(*runtime.Scheme) error{
		clientgoscheme.AddToScheme,
		authorization_v1api20200801preview.AddToScheme, authorization_v1api20200801previews.AddToScheme,
		authorization_v1api20220401.AddToScheme, authorization_v1api20220401s.AddToScheme,
		dbforpostgresql_v1api20210601.AddToScheme, dbforpostgresql_v1api20210601s.AddToScheme,
		dbforpostgresql_v1api20220120preview.AddToScheme, dbforpostgresql_v1api20220120previews.AddToScheme,
		dbforpostgresql_v1api20221201.AddToScheme, dbforpostgresql_v1api20221201s.AddToScheme,
		dbforpostgresql_v1api20230601preview.AddToScheme, dbforpostgresql_v1api20230601previews.AddToScheme,
		dbforpostgresql_v1api20240801.AddToScheme, dbforpostgresql_v1api20240801s.AddToScheme,
		dbforpostgresql_v20250801.AddToScheme, dbforpostgresql_v20250801s.AddToScheme,
		kusto_v1api20230815.AddToScheme, kusto_v1api20230815s.AddToScheme,
		kusto_v1api20240413.AddToScheme, kusto_v1api20240413s.AddToScheme,
		managedidentity_v1api20181130.AddToScheme, managedidentity_v1api20181130s.AddToScheme,
		managedidentity_v1api20220131preview.AddToScheme, managedidentity_v1api20220131previews.AddToScheme,
		managedidentity_v1api20230131.AddToScheme, managedidentity_v1api20230131s.AddToScheme,
		resources_v1api20200601.AddToScheme, resources_v1api20200601s.AddToScheme,
		sql_v1api20211101.AddToScheme, sql_v1api20211101s.AddToScheme,
		storage_v1api20210401.AddToScheme, storage_v1api20210401s.AddToScheme,
		storage_v1api20220901.AddToScheme, storage_v1api20220901s.AddToScheme,
		storage_v1api20230101.AddToScheme, storage_v1api20230101s.AddToScheme,
		storage_v20210401.AddToScheme, storage_v20210401s.AddToScheme,
		storage_v20220901.AddToScheme, storage_v20220901s.AddToScheme,
		storage_v20230101.AddToScheme, storage_v20230101s.AddToScheme,
		storage_v20250601.AddToScheme, storage_v20250601s.AddToScheme,
	}
	for _, add := range builders {
		if err := add(scheme); err != nil {
			return nil, err
		}
	}
	return scheme, nil
}
