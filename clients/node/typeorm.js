/*
 * TypeORM refuses a column type it does not list (DataTypeNotSupportedError):
 *
 *   const { withUlid } = require('ulid-pg/typeorm');
 *   const ds = withUlid(new DataSource({ type: 'postgres', ... }));   // before initialize()
 *
 * then `type: 'ulid'` columns are created and kept by synchronize.  Never
 * declare an existing ulid column as varchar or uuid instead: synchronize
 * then drops and re-adds it, losing its data.
 */
'use strict';

function withUlid(dataSource) {
	const types = dataSource.driver.supportedDataTypes;
	if (!types.includes('ulid'))
		types.push('ulid');
	return dataSource;
}

module.exports = { withUlid };
