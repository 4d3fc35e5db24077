/* IPC .txt scene scripts (internal to src/io) */
#ifndef IPCC_IO_SCENE_TXT_H
#define IPCC_IO_SCENE_TXT_H

/* 1 when the scene is an IPC script: the name ends in .txt, or the first non-blank
   character of text is neither '{' nor '[' */
int ipc_scene_text_is_txt(const char *path, const char *text);

#endif
