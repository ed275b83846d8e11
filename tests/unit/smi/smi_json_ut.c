// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of tools/smi_json.c: scripts parse npu-smi -j, so escaping
 * and structure must give valid JSON for any input bytes.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "t_check.h"
#include "fake_smi.h"
#include "smi_json.h"

static void assert_quoted(const char *in, const char *want)
{
	struct fake_out o;

	fake_out_open(&o);
	smi_json_quote(o.f, in);
	ck_assert_str_eq(fake_out_close(&o), want);
	free(o.text);
}

START_TEST(test_smi_json_quote_plain_text)
{
	assert_quoted("", "\"\"");
	assert_quoted("t_npu_smi", "\"t_npu_smi\"");
}
END_TEST

START_TEST(test_smi_json_quote_escapes_quote_and_backslash)
{
	assert_quoted("a\"b\\c", "\"a\\\"b\\\\c\"");
}
END_TEST

START_TEST(test_smi_json_quote_escapes_control_characters)
{
	assert_quoted("a\nb\tc\rd", "\"a\\nb\\tc\\rd\"");
	assert_quoted("\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"");
}
END_TEST

START_TEST(test_smi_json_quote_keeps_valid_utf8)
{
	/* é, €, U+1F600 */
	assert_quoted("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80",
		      "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"");
}
END_TEST

START_TEST(test_smi_json_quote_replaces_invalid_utf8)
{
	/* A comm cut in the middle of a character, a lone continuation. */
	assert_quoted("ab\xe2\x82", "\"ab\\ufffd\\ufffd\"");
	assert_quoted("\x80x", "\"\\ufffdx\"");
	/* Overlong "/", a UTF-16 surrogate, beyond U+10FFFF. */
	assert_quoted("\xc0\xaf", "\"\\ufffd\\ufffd\"");
	assert_quoted("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");
	assert_quoted("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
}
END_TEST

START_TEST(test_smi_json_writer_nests_with_commas)
{
	struct smi_json j;
	struct fake_out o;

	fake_out_open(&o);
	smi_json_init(&j, o.f);
	smi_json_object(&j, NULL);
	smi_json_str(&j, "s", "x");
	smi_json_uint(&j, "u", 18446744073709551615ULL);
	smi_json_int(&j, "i", -1);
	smi_json_str(&j, "n", NULL);
	smi_json_array(&j, "a");
	smi_json_int(&j, NULL, 1);
	smi_json_object(&j, NULL);
	smi_json_end(&j);
	smi_json_end(&j);
	smi_json_array(&j, "e");
	smi_json_end(&j);
	smi_json_end(&j);
	ck_assert_str_eq(fake_out_close(&o),
			 "{\n"
			 "  \"s\": \"x\",\n"
			 "  \"u\": 18446744073709551615,\n"
			 "  \"i\": -1,\n"
			 "  \"n\": null,\n"
			 "  \"a\": [\n"
			 "    1,\n"
			 "    {}\n"
			 "  ],\n"
			 "  \"e\": []\n"
			 "}\n");
	free(o.text);
}
END_TEST

START_TEST(test_smi_json_every_byte_gives_valid_json)
{
	char s[256];
	struct smi_json j;
	struct fake_out o;
	int i;

	for (i = 1; i < 256; i++)
		s[i - 1] = (char)i;
	s[255] = '\0';
	fake_out_open(&o);
	smi_json_init(&j, o.f);
	smi_json_object(&j, NULL);
	smi_json_str(&j, s, s);
	smi_json_end(&j);
	fake_assert_json(fake_out_close(&o));
	free(o.text);
}
END_TEST

static Suite *smi_json_suite(void)
{
	Suite *s = suite_create("smi_json");
	TCase *q = tcase_create("smi_json_quote");
	TCase *w = tcase_create("smi_json_writer");

	tcase_add_test(q, test_smi_json_quote_plain_text);
	tcase_add_test(q, test_smi_json_quote_escapes_quote_and_backslash);
	tcase_add_test(q, test_smi_json_quote_escapes_control_characters);
	tcase_add_test(q, test_smi_json_quote_keeps_valid_utf8);
	tcase_add_test(q, test_smi_json_quote_replaces_invalid_utf8);
	tcase_add_test(w, test_smi_json_writer_nests_with_commas);
	tcase_add_test(w, test_smi_json_every_byte_gives_valid_json);
	suite_add_tcase(s, q);
	suite_add_tcase(s, w);
	return s;
}

int main(void)
{
	return t_run_suite(smi_json_suite());
}
