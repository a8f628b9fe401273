/*
 * question.h - a backend's question (an ssh host key, a password) asked
 * from the worker and answered here (question.c; UI thread).
 */
#ifndef SQ_TUI_QUESTION_H
#define SQ_TUI_QUESTION_H

struct sq_app;

void sq_question_key(struct sq_app *app, int key);
void sq_question_draw(struct sq_app *app);

#endif
