/* IPC .txt scene scripts (internal to src/io) */
#ifndef IPCC_IO_SCENE_TXT_H
#define IPCC_IO_SCENE_TXT_H

/* 1 when the scene is an IPC script: the name ends in .txt, or it does not end in .json
   and text does not start (after blanks) like a JSON value: { [ " - or a digit */
int ipc_scene_text_is_txt(const char *path, const char *text);

#endif
