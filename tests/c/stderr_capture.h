/* Capturing what the runtime prints on stderr, for tests that check its reports.
 *
 *   struct tc_capture c; tc_capture_begin(&c);   stderr now goes to a temporary file
 *   tc_capture_read(&c);                          c.text: everything printed so far
 *   tc_capture_end(&c);                           stderr back; c.text: the whole capture,
 *                                                 also echoed to the real stderr
 */
#ifndef TESTS_C_STDERR_CAPTURE_H
#define TESTS_C_STDERR_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct tc_capture {
	FILE *file;
	int saved_fd;
	char text[32768];
};

static inline void tc_capture_begin(struct tc_capture *c)
{
	c->text[0] = 0;
	c->file = tmpfile();
	if (!c->file) {
		perror("tmpfile");
		exit(1);
	}
	fflush(stderr);
	c->saved_fd = dup(2);
	dup2(fileno(c->file), 2);
}

static inline const char *tc_capture_read(struct tc_capture *c)
{
	fflush(stderr);
	rewind(c->file);
	size_t n = fread(c->text, 1, sizeof c->text - 1, c->file);
	c->text[n] = 0;
	return c->text;
}

static inline void tc_capture_end(struct tc_capture *c)
{
	tc_capture_read(c);
	dup2(c->saved_fd, 2);
	close(c->saved_fd);
	fclose(c->file);
	fputs(c->text, stderr);
}

#endif
