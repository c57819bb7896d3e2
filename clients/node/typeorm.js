/*
 * TypeORM refuses a column type it does not list (DataTypeNotSupportedError):
 *
 *   const { withUlid } = require('ulid-pg/typeorm');
 *   const ds = withUlid(new DataSource({ type: 'postgres', ... }));   // before initialize()
 *
 * then `type: 'ulid'` columns are created and kept by synchronize, and
 * initialize() ends with registerUlid(ds), so ulid[] reads as arrays (on
 * this DataSource's pools only).  Never declare an existing ulid column as
 * varchar or uuid instead: synchronize then drops and re-adds it, losing
 * its data.
 */
'use strict';

const { registerUlid } = require('./index');

function withUlid(dataSource) {
	const types = dataSource.driver.supportedDataTypes;
	if (!types.includes('ulid'))
		types.push('ulid');
	if (!dataSource.ulidRegistered) {
		dataSource.ulidRegistered = true;
		const initialize = dataSource.initialize.bind(dataSource);
		dataSource.initialize = async () => {
			await initialize();
			await registerUlid(dataSource);
			return dataSource;
		};
	}
	return dataSource;
}

module.exports = { withUlid };
