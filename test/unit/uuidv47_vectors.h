/*
 * uuidv47_vectors.h: UUIDv47 test vectors computed by the reference
 * implementation, stateless-me/uuidv47 at commit
 * 81ba63f4580435b8e09991fac6dff6810f20a738 (uuidv47_encode_v4facade of its
 * uuidv47.h, built outside this repository), for four keys (00..0f, all
 * zeros, all ones, and one random) and eight UUIDv7s each: key (16 bytes,
 * k0 then k1 little-endian), UUIDv7, facade.
 */
static const char *const uuidv47_vectors[][3] = {
	{"000102030405060708090a0b0c0d0e0f", "00000000-0000-7000-8000-000000000000", "d2d1776f-12b1-4000-8000-000000000000"},
	{"000102030405060708090a0b0c0d0e0f", "ffffffff-ffff-7fff-bfff-ffffffffffff", "4b879cd9-4b5a-4fff-bfff-ffffffffffff"},
	{"000102030405060708090a0b0c0d0e0f", "018eafc1-8435-795c-a58c-d434d0641a13", "1ace649f-4282-495c-a58c-d434d0641a13"},
	{"000102030405060708090a0b0c0d0e0f", "cf5a9ea9-737d-7765-941d-1c0b64b7dd48", "bc405bb4-be9f-4765-941d-1c0b64b7dd48"},
	{"000102030405060708090a0b0c0d0e0f", "8d3edbd5-bbc0-7462-8f6f-ff4db2a97a24", "8cd97a72-5e22-4462-8f6f-ff4db2a97a24"},
	{"000102030405060708090a0b0c0d0e0f", "b65cf005-cd4a-7504-aeee-ddbdf9a7ec56", "a675b37b-e3dd-4504-aeee-ddbdf9a7ec56"},
	{"000102030405060708090a0b0c0d0e0f", "e6eee711-083b-76e1-ad59-bae49fc6ab10", "02304d75-deca-46e1-ad59-bae49fc6ab10"},
	{"000102030405060708090a0b0c0d0e0f", "6bf91ba6-f4f4-7441-9774-ac9a259daeba", "4849fb3e-e624-4441-9774-ac9a259daeba"},
	{"00000000000000000000000000000000", "00000000-0000-7000-8000-000000000000", "61bc14fa-dc0a-4000-8000-000000000000"},
	{"00000000000000000000000000000000", "ffffffff-ffff-7fff-bfff-ffffffffffff", "e0330079-56e8-4fff-bfff-ffffffffffff"},
	{"00000000000000000000000000000000", "018eafc1-8435-76bc-ab83-4917b342fb72", "f810d8c0-a6b6-46bc-ab83-4917b342fb72"},
	{"00000000000000000000000000000000", "af105308-3883-7653-a59d-ca077558d67a", "436f58c8-80de-4653-a59d-ca077558d67a"},
	{"00000000000000000000000000000000", "31a072ae-053a-7783-892e-cccb1f256161", "230cb8be-a47d-4783-892e-cccb1f256161"},
	{"00000000000000000000000000000000", "8efc5ff2-4f6a-7778-9189-1b243fb3f5d8", "33a0355e-7d45-4778-9189-1b243fb3f5d8"},
	{"00000000000000000000000000000000", "1f5cccaa-f9bd-71fc-a43e-484c20cf54f8", "1c6b3883-0c44-41fc-a43e-484c20cf54f8"},
	{"00000000000000000000000000000000", "551936a8-d05f-7d0e-b93c-c09c745f062c", "067b861f-fb51-4d0e-b93c-c09c745f062c"},
	{"ffffffffffffffffffffffffffffffff", "00000000-0000-7000-8000-000000000000", "c58d8292-bf70-4000-8000-000000000000"},
	{"ffffffffffffffffffffffffffffffff", "ffffffff-ffff-7fff-bfff-ffffffffffff", "d1e5d314-2433-4fff-bfff-ffffffffffff"},
	{"ffffffffffffffffffffffffffffffff", "018eafc1-8435-74a8-a5c7-864ac3ca9392", "09e6224b-a1ec-44a8-a5c7-864ac3ca9392"},
	{"ffffffffffffffffffffffffffffffff", "c61fbed1-5601-7c29-ac97-a5eb8e3c9713", "0d854662-86a7-4c29-ac97-a5eb8e3c9713"},
	{"ffffffffffffffffffffffffffffffff", "673f1979-4ffb-72a5-9da4-2b8cf68eec85", "48445900-867b-42a5-9da4-2b8cf68eec85"},
	{"ffffffffffffffffffffffffffffffff", "3678fa9e-d452-74b7-b38a-cb2fe9166707", "80bbf55f-e902-44b7-b38a-cb2fe9166707"},
	{"ffffffffffffffffffffffffffffffff", "75efdaf8-9e57-7962-bcf6-2976b83b25c6", "4d6e6a48-bfe8-4962-bcf6-2976b83b25c6"},
	{"ffffffffffffffffffffffffffffffff", "0275f2bd-bdcb-7f17-a0c1-a3796bef3748", "1557780a-67f2-4f17-a0c1-a3796bef3748"},
	{"9d93beec087205511be70fec473bcff5", "00000000-0000-7000-8000-000000000000", "60132916-6860-4000-8000-000000000000"},
	{"9d93beec087205511be70fec473bcff5", "ffffffff-ffff-7fff-bfff-ffffffffffff", "426cf803-d496-4fff-bfff-ffffffffffff"},
	{"9d93beec087205511be70fec473bcff5", "018eafc1-8435-7018-9405-52711165ed35", "a7b635d6-2f65-4018-9405-52711165ed35"},
	{"9d93beec087205511be70fec473bcff5", "ead4ac95-ba2e-7481-9406-6cfc7be72bda", "a581a00a-7856-4481-9406-6cfc7be72bda"},
	{"9d93beec087205511be70fec473bcff5", "40ad10d9-204d-763a-9636-d8fce1d04a8b", "5457e73c-d75d-463a-9636-d8fce1d04a8b"},
	{"9d93beec087205511be70fec473bcff5", "1913b50d-98d4-7f08-9657-c371cf97f4fc", "29d544ac-e3bc-4f08-9657-c371cf97f4fc"},
	{"9d93beec087205511be70fec473bcff5", "fcb770f7-3edd-737b-87f6-04044a919f1b", "9ff37ae6-f98a-437b-87f6-04044a919f1b"},
	{"9d93beec087205511be70fec473bcff5", "a649b9a6-4fa6-753f-b43c-37ca0fc7398e", "3661e02c-34da-453f-b43c-37ca0fc7398e"},
};
